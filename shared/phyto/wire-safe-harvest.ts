import { z } from 'zod';
import { DEMO_FARM } from '../api/examples';
import { locationFields } from '../api/location-fields';
import { DAY_PATTERN } from '../api/query-params';
import { KindView } from '../records/kind-entry';
import { HARVEST_HOLDS, harvestHoldSchema, holdsSince } from '../rules/harvest-holds';
import { harvestDay, safeHarvestDays } from './safe-harvest';

/** The safe-harvest look-up: when each crop location of a farm campaign may be harvested, by its treatments. */
export const safeHarvestQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
  date: z
    .string()
    .meta({ pattern: DAY_PATTERN })
    .optional()
    .describe('DD-MM-YYYY, the day the crew means to harvest; default today in Madrid'),
});

export type SafeHarvestQuery = z.infer<typeof safeHarvestQuerySchema>;

export const safeHarvestSchema = z
  .object({
    ...locationFields,
    earliestHarvest: z
      .string()
      .nullable()
      .describe(
        'DD-MM-YYYY: the last day on which a stored treatment of this location ends its safety interval (application day plus the interval, in calendar days); null when no treatment limits the harvest',
      ),
    safeOn: z.boolean().describe('whether `date` is on or after `earliestHarvest` (true when it is null)'),
    setBy: z
      .object({
        record: z.string().describe('the record URN'),
        product: z.object({ code: z.string(), name: z.string() }).describe('the product whose interval it is'),
        applied: z.string().describe('DD-MM-YYYY, the application day in Madrid'),
        seclimit: z.string().describe("that product's safety interval in days, as the record states it"),
      })
      .nullable()
      .describe('the treatment that sets `earliestHarvest`; null when nothing limits it'),
  })
  .meta({ id: 'SafeHarvest' });

export type SafeHarvest = z.infer<typeof safeHarvestSchema>;

/** The worked example, from the demo flow. */
const safeHarvestExample = {
  query: { agrifarmId: DEMO_FARM, date: '10-12-2026' },
  response: [
    {
      idcp: 4,
      crop: { typecrop: { id: '101', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' },
      earliestHarvest: '06-12-2026',
      safeOn: true,
      setBy: {
        record: 'urn:ngsi-ld:AgriPhytosanitary:2',
        product: { code: 'ES-19616', name: 'POLTIGLIA 20 WP' },
        applied: '22-11-2026',
        seclimit: '14',
      },
    },
  ] satisfies z.output<typeof safeHarvestSchema>[],
};

/**
 * When each crop location of the caller's farm campaign may be harvested, from the harvest holds of every campaign of
 * the holding (shared/rules/harvest-holds.ts): the same facts, read the same way, as a harvest is judged by. The
 * treatments publish them (kind-reads.ts); any kind that holds a harvest would be read alike.
 */
export const safeHarvestView: KindView<SafeHarvestQuery> = {
  summary: 'When each crop location of a farm may be harvested',
  description:
    'For a harvest crew before it starts: each crop location of the farm campaign with `earliestHarvest`, the last ' +
    "day on which any stored treatment's pre-harvest interval (seclimit, calendar days from the application day) " +
    'ends, `safeOn`, whether `date` (default today in Madrid) is on or after it, and `setBy`, the record, product, ' +
    'application day and interval that set it. A tank mix counts each product with its own interval; "NP" (no ' +
    "interval applies) and an interval no use states limit nothing. The treatments of the same SIGPAC enclosure and crop count, in this campaign and the one before (a December treatment holds a January harvest), applied on or before `date`; a record on several crops holds each for its own crop's interval.",
  query: safeHarvestQuerySchema,
  answer: safeHarvestSchema,
  answers: 'every crop location, by idcp',
  errors: ['AGRIFARM_NOT_FOUND', 'INVALID_DATE'],
  example: safeHarvestExample,
  async view(query, read) {
    const day = harvestDay(query.date, read.now());
    const holds = await read.facts(HARVEST_HOLDS, holdsSince(day.toISODate()!));
    return safeHarvestDays(
      holds.map((f) => harvestHoldSchema.parse(f)),
      read.farm,
      day,
    );
  },
};
