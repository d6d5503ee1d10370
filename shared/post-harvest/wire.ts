import { z } from 'zod';
import { partListQuery, productPartFields, refinePart } from '../api/product-part-schemas';
import { DATE_TIME_PATTERN } from '../api/query-params';
import {
  exportabilityFields,
  roundTripFields,
  measureSchema,
  name,
  READ_ONLY,
  recordStamps,
} from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';

/**
 * The post-harvest treatment (`AgriPostHarvestTreatment`, CUE `TratamientosPostCosecha`): the request the ERP sends,
 * in the treatments' conventions (the product part every treatment kind has; dates DD-MM-YYYY HH:mm:ss; `Measure`
 * objects), with the produce treated instead of crop locations.
 */
const plantProductSchema = z
  .strictObject({
    type: z.literal('TypePlantProduct'),
    id: z.string().max(10).regex(/^\d+$/, 'SIEX code as text').describe('PROD_VEGETAL Id of the produce treated'),
    name: name().default(''),
    quantity: z.number().positive().max(1e9).describe('how much produce was treated, in measure'),
    measure: measureSchema.describe('a mass: kg (UNIDADES_MEDIDA 5) or t (6); SIEX takes it in kilograms'),
  })
  .meta({
    id: 'TreatedPlantProduct',
    description: 'the harvested produce treated (SIEX ProductoVegetal and Cantidad)',
  });

const requestFields = {
  type: z.literal('AgriPostHarvestTreatment'),
  dateApplication: z.string().meta({ pattern: DATE_TIME_PATTERN }).describe('DD-MM-YYYY HH:mm:ss, Spanish local time'),
  plantProduct: plantProductSchema,
  ...productPartFields,
};

export const postHarvestRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .superRefine(refinePart)
  .meta({ id: 'AgriPostHarvestTreatmentRequest' });

/** The record as stored and answered: the request as registered, with its id and the core's stamps. */
const postHarvestRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriPostHarvestTreatment:<n>').meta(READ_ONLY),
    ...requestFields,
    ...recordStamps,
  })
  .meta({ id: 'AgriPostHarvestTreatmentStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const postHarvestRecordViewSchema = postHarvestRecordSchema
  .extend(exportabilityFields)
  .meta({ id: 'AgriPostHarvestTreatment' });

export type PostHarvestRecordView = z.infer<typeof postHarvestRecordViewSchema>;

export const postHarvestPatchSchema = mergePatchSchemaOf(
  'AgriPostHarvestTreatmentRequest',
  '`{"plantProduct": {"type": "TypePlantProduct", "id": "116", "quantity": 24000, "measure": {...}}}` corrects the ' +
    'produce, `{"efficacy": {...}}` reports the efficacy, `{"detail": null}` removes the detail.',
  'AgriPostHarvestTreatmentPatch',
);

export const postHarvestListQuerySchema = z.object(partListQuery);
