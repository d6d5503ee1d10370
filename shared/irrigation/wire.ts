import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { listPeriod, recordListFilters } from '../api/query-params';
import {
  exportabilityFields,
  roundTripFields,
  idcpList,
  measureSchema,
  READ_ONLY,
  recordStamps,
} from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';

/**
 * The irrigation (`AgriIrrigation`, RD 1051/2022 art. 5 and Anexo IX): the request the ERP sends, in the seed's
 * conventions (objects with `type`, `id` and `name`; days DD-MM-YYYY; `idcp` from listidcp). Codes are SIEX catalogue
 * codes as text.
 */
const NAME_MAX = 200;
const name = () => z.string().max(NAME_MAX).default('');
const siexId = z.string().max(10).regex(/^\d+$/, 'SIEX code as text');

/** A code of a SIEX catalogue as the seed writes one: `{ type, id, name }`. */
const coded = (type: string, catalogue: string, id: string) =>
  z
    .strictObject({ type: z.literal(type), id: siexId, name: name() })
    .meta({ id, description: `SIEX catalogue ${catalogue}` });

const unique = <T extends { id: string }>(items: T[]) => new Set(items.map((i) => i.id)).size === items.length;

const requestFields = {
  type: z.literal('AgriIrrigation'),
  dateStart: daySchema.describe('first day of the irrigation, DD-MM-YYYY (Madrid)'),
  dateEnd: daySchema.describe('last day, DD-MM-YYYY (Madrid): not before dateStart'),
  idcp: idcpList(),
  system: coded('TypeIrrigationSystem', 'SIST_RIEGO', 'IrrigationSystem'),
  // Above 0: an irrigation that brought no water is no irrigation. The CUE's figure is a total in m3 (water-quantity.ts).
  quantity: z.number().positive().finite().describe('water applied, in measure'),
  measure: measureSchema.describe(
    'a UNIDADES_MEDIDA code of a volume (m3, L) or a volume per area (m3/ha, L/m2): the water of the whole irrigation, or per hectare of its locations',
  ),
  waterOrigins: z
    .array(coded('TypeWaterOrigin', 'ORIGEN_AGUA_RIEGO', 'WaterOrigin'))
    .max(6)
    .refine(unique, 'an origin appears twice')
    .default([]),
  energy: coded('TypeEnergy', 'TIPENERGIA', 'IrrigationEnergy').optional(),
  meter: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[^\n\r]*$/, 'one line')
    .optional()
    .describe("the water meter's number (SIEX NumContador)"),
  goodPractices: z
    .array(coded('TypeGoodPractice', 'BUENAS_PRACTICAS_AMBITOS, scope Riego', 'IrrigationGoodPractice'))
    .max(31)
    .refine(unique, 'a good practice appears twice')
    .default([]),
  detail: z.string().max(2000).optional(),
};

function isoOf(day: string): string {
  const [d, m, y] = day.split('-');
  return `${y}-${m}-${d}`;
}

export const irrigationRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .superRefine((r, ctx) => {
    if (isoOf(r.dateEnd) < isoOf(r.dateStart))
      ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'dateEnd is before dateStart' });
  })
  .meta({ id: 'AgriIrrigationRequest' });

/** The record as stored: the request as registered, with its id and its dates of change. */
export const irrigationRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriIrrigation:<n>').meta(READ_ONLY),
    ...requestFields,
    ...recordStamps,
    water: z
      .object({
        m3: z.number().describe('the water in cubic metres: quantity in measure, converted'),
        perHa: z.boolean().describe('true: m3 per hectare of the locations; false: m3 of the whole irrigation'),
      })
      .meta({ id: 'IrrigationWater' })
      // readOnly on the record's member, beside its $ref, where a client stripping a read-back record looks.
      .meta(READ_ONLY),
  })
  .meta({ id: 'AgriIrrigationStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const irrigationRecordViewSchema = irrigationRecordSchema
  .extend(exportabilityFields)
  .meta({ id: 'AgriIrrigation' });

export type IrrigationRecordView = z.infer<typeof irrigationRecordViewSchema>;

/** An amendment, as for treatments. */
export const irrigationPatchSchema = mergePatchSchemaOf(
  'AgriIrrigationRequest',
  '`{"quantity": 450}` corrects the water, `{"meter": "C-2231"}` adds the meter, `{"energy": null}` removes the energy.',
  'AgriIrrigationPatch',
);

export const irrigationListQuerySchema = z.object({
  ...listPeriod('the first day of the irrigation'),
  system: siexId.optional().describe('only records of this irrigation system (SIST_RIEGO code)'),
  ...recordListFilters,
});
