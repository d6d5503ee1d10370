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
 * The store and premises treatment (`AgriFacilityTreatment`, CUE `TratamientosEdifInstalaciones`): the request the
 * ERP sends, in the treatments' conventions (the product part every treatment kind has; dates DD-MM-YYYY HH:mm:ss;
 * `Measure` objects), with the buildings treated instead of crop locations.
 */
const facilitySchema = z
  .strictObject({
    type: z.literal('TypeFacility'),
    id: z
      .string()
      .max(10)
      .regex(/^\d+$/, 'SIEX code as text')
      .describe('class of the building (EDIFICACIONES_INSTALACIONES Código SIEX), e.g. 59 Cámaras frigoríficas'),
    name: name().default(''),
    reaId: z
      .number()
      .int()
      .min(1)
      .max(9_999_999_999)
      .describe("the building's own identifier in the REA (number(10)), which SIEX receives as IdEdificacion"),
    volume: z.number().positive().max(1e7).describe('the volume treated, in measure'),
    measure: measureSchema.describe('a volume: m3 (UNIDADES_MEDIDA 3) or L (4); SIEX takes it in m3'),
  })
  .meta({ id: 'Facility', description: 'a store, chamber or premises treated (SIEX Edificaciones)' });

const requestFields = {
  type: z.literal('AgriFacilityTreatment'),
  dateApplication: z.string().meta({ pattern: DATE_TIME_PATTERN }).describe('DD-MM-YYYY HH:mm:ss, Spanish local time'),
  facilities: z
    .array(facilitySchema)
    .min(1)
    .max(20)
    .refine((a) => new Set(a.map((f) => f.reaId)).size === a.length, 'a building (reaId) appears twice'),
  ...productPartFields,
};

export const facilityRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .superRefine(refinePart)
  .meta({ id: 'AgriFacilityTreatmentRequest' });

/** The record as stored and answered: the request as registered, with its id and the core's stamps. */
const facilityRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriFacilityTreatment:<n>').meta(READ_ONLY),
    ...requestFields,
    ...recordStamps,
  })
  .meta({ id: 'AgriFacilityTreatmentStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const facilityRecordViewSchema = facilityRecordSchema
  .extend(exportabilityFields)
  .meta({ id: 'AgriFacilityTreatment' });

export type FacilityRecordView = z.infer<typeof facilityRecordViewSchema>;

export const facilityPatchSchema = mergePatchSchemaOf(
  'AgriFacilityTreatmentRequest',
  '`{"facilities": [...]}` replaces the buildings, `{"efficacy": {...}}` reports the efficacy, `{"detail": null}` ' +
    'removes the detail.',
  'AgriFacilityTreatmentPatch',
);

export const facilityListQuerySchema = z.object(partListQuery);
