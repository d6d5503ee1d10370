import { z } from 'zod';
import { DAY_PATTERN } from './query-params';

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

/** A crop location of a farm campaign as the views over its locations name it: its idcp, crop and variety. */
export const locationFields = {
  idcp: z.number().int().describe('the crop location, as the farm lookup and listidcp give it'),
  crop: z.object({
    typecrop: z.object({ id: z.string().describe('SIEX crop code'), name: z.string() }),
    code: z.number().int().describe('variety code'),
    name: z.string().describe('variety name'),
  }),
};

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
