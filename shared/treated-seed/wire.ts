import { z } from 'zod';
import {
  listedOnce,
  MAX_MIX_ITEMS,
  pairedAmounts,
  partSiexFields,
  productDoseFields,
  unplacedListQuery,
} from '../api/product-part-schemas';
import { DATE_TIME_PATTERN } from '../api/query-params';
import {
  exportabilityFields,
  measureSchema,
  name,
  READ_ONLY,
  recordStamps,
  roundTripFields,
} from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';

/**
 * The use of treated seed (`AgriTreatedSeed`, CUE `UsoSemillaTratada`): the request the ERP sends, in the treatments'
 * conventions (coded objects, dates DD-MM-YYYY HH:mm:ss, `Measure` objects, products as the register names them).
 */
const siexCode = (what: string) => z.string().max(10).regex(/^\d+$/, 'SIEX code as text').describe(what);

const seedProductSchema = z
  .strictObject(productDoseFields)
  .superRefine((p, ctx) => pairedAmounts(p, ctx, [['dt', 'mdt']]))
  .meta({
    id: 'SeedProduct',
    description:
      'a product the seed was treated with, at its dose (per kilogram of seed: kg/kg, L/kg or ml/kg lets the gateway ' +
      'work out the total SIEX wants), or with the total used in dt and mdt',
  });

const requestFields = {
  type: z.literal('AgriTreatedSeed'),
  date: z
    .string()
    .meta({ pattern: DATE_TIME_PATTERN })
    .describe('when the treated seed was used, DD-MM-YYYY HH:mm:ss, Spanish local time (SIEX Fecha)'),
  treatment: z
    .strictObject({
      type: z.literal('TypeSeedTreatment'),
      id: siexCode('TIPO_TRATAMIENTO code'),
      name: name().default(''),
    })
    .meta({
      id: 'SeedTreatment',
      description:
        'SIEX catalogue TIPO_TRATAMIENTO: 2 treated on the farm, 3 at a conditioning centre, 4 bought treated (product ' +
        'authorised in Spain), 5 bought treated outside Spain (SIEX Tratamiento)',
    }),
  crop: z
    .strictObject({ type: z.literal('TypeCrop'), id: siexCode('PRODUCTOS code'), name: name().default('') })
    .meta({ id: 'SeedCrop', description: 'SIEX catalogue PRODUCTOS: the crop the seed is sown for (SIEX Producto)' }),
  lot: z.string().min(1).max(100).optional().describe('the seed lot (SIEX NumeroLote)'),
  quantity: z.number().positive().max(1e9).describe('how much seed, in measure'),
  measure: measureSchema.describe('a mass: kg (UNIDADES_MEDIDA 5) or t (6); SIEX takes it in kilograms'),
  products: z
    .array(seedProductSchema)
    .min(1)
    .max(MAX_MIX_ITEMS + 1)
    .optional()
    .describe(
      'the products the seed was treated with (SIEX ProductosFito): required for seed treated on the farm or at a ' +
        'conditioning centre (treatment 2, 3), optional for seed bought treated (4, 5)',
    ),
  efficacy: partSiexFields.efficacy,
  detail: partSiexFields.detail,
};

export const treatedSeedRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .superRefine((r, ctx) => listedOnce(r.products ?? [], 'products', ctx))
  .meta({ id: 'AgriTreatedSeedRequest' });

/** The record as stored and answered: the request as registered, with its id and the core's stamps. */
const treatedSeedRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriTreatedSeed:<n>').meta(READ_ONLY),
    ...requestFields,
    ...recordStamps,
  })
  .meta({ id: 'AgriTreatedSeedStored' });

/** The record as every answer shows it: the stored record and whether SIEX would take it now. */
export const treatedSeedRecordViewSchema = treatedSeedRecordSchema
  .extend(exportabilityFields)
  .meta({ id: 'AgriTreatedSeed' });

export type TreatedSeedRecordView = z.infer<typeof treatedSeedRecordViewSchema>;

export const treatedSeedPatchSchema = mergePatchSchemaOf(
  'AgriTreatedSeedRequest',
  '`{"lot": "L-2026-118"}` corrects the lot, `{"efficacy": {...}}` reports the efficacy, `{"detail": null}` removes ' +
    'the detail.',
  'AgriTreatedSeedPatch',
);

export const treatedSeedListQuerySchema = z.object(
  unplacedListQuery('the day of use', {
    crop: siexCode('only uses of seed for this crop (PRODUCTOS code)').optional(),
  }),
);
