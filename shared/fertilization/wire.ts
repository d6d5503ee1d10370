import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { listPeriod, recordListFilters } from '../api/query-params';
import {
  decimalText,
  exportabilityFields,
  idcpList,
  machineSchema,
  measureSchema,
  READ_ONLY,
  recordStamps,
  roundTripFields,
} from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';
import { supplierIdFields } from '../api/catalog-schemas';

/**
 * The fertilization (`AgriFertilize`, RD 1051/2022): the request the ERP sends, in the seed's conventions (objects
 * with `type`, `id` and `name`; days DD-MM-YYYY; `idcp` from listidcp). Codes are SIEX catalogue codes as text.
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

/** A content of the material as a percentage of its mass (the label's and the analysis' figures). */
const content = (catalogue: string, id: string) =>
  z
    .array(z.strictObject({ id: siexId, percent: z.number().min(0).max(100) }).meta({ id }))
    .max(20)
    .refine(unique, 'a code appears twice')
    .describe(`SIEX catalogue ${catalogue}: each with its content in % of the material's mass`);

const supplierSchema = z
  .strictObject({
    name: z.string().max(NAME_MAX).optional().describe("the supplier's name (SIEX EmpresaSuministradora)"),
    nif: z.string().min(1).max(20).optional().describe("a company's NIF (a manure manager)"),
    rega: z.string().min(1).max(20).optional().describe("the livestock farm's REGA code (manure)"),
    nima: z.string().min(1).max(20).optional().describe("the waste handler's NIMA (waste used as fertilizer)"),
  })
  .superRefine((s, ctx) => {
    const given = supplierIdFields.filter((k) => s[k] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of nif, rega or nima' });
  })
  .meta({ id: 'FertilizerSupplier' });

const fertilizerMaterialSchema = z
  .strictObject({
    type: z.literal('TypeFertilizerMaterial'),
    id: siexId.describe(
      'SIEX catalogue MAT_FERTI: what it must record is its "Campos a registrar" (GET /v1/catalog/siex/fertilizer-materials)',
    ),
    name: name(),
    nutrients: content('MACRONUTRIENTES', 'Nutrient').default([]),
    micronutrients: content('MICRONUTRIENTES', 'Micronutrient').default([]),
    heavyMetals: content('METALES_PESADOS', 'HeavyMetal').default([]),
    treatment: coded('TypeManureTreatment', 'TRAT_ESTIERCOLES', 'ManureTreatment').optional(),
    supplier: supplierSchema.optional(),
    productName: z
      .string()
      .min(1)
      .max(NAME_MAX)
      .optional()
      .describe(
        'the product as its label names it; when exactly one product of the material in DETALLE_MATERIAL_FERT goes by ' +
          'this name (its product or trade name), the record names it as `detail`',
      ),
    detail: coded('TypeFertilizerDetail', 'DETALLE_MATERIAL_FERT', 'FertilizerDetail')
      .optional()
      .describe(
        'the commercial product (SIEX DETALLE_MATERIAL_FERT, GET /v1/catalog/siex/fertilizer-details): one of the ' +
          "material's, else 422 DETAIL_NOT_OF_MATERIAL. CUE MaterialFertilizante.DetalleMaterial",
      ),
    density: z
      .number()
      .positive()
      .max(10)
      .optional()
      .describe('kg per litre: needed when the dose is a volume, since contents are by mass'),
  })
  .meta({ id: 'FertilizerMaterial' });

const fertigationSchema = z
  .strictObject({
    system: coded('TypeIrrigationSystem', 'SIST_RIEGO', 'IrrigationSystem'),
    waterOrigins: z
      .array(coded('TypeWaterOrigin', 'ORIGEN_AGUA_RIEGO', 'WaterOrigin'))
      .max(6)
      .refine(unique, 'an origin appears twice')
      .default([]),
    quantity: z.number().min(0).optional().describe('water applied, in measure'),
    measure: measureSchema.describe('unit of the water quantity (m3, m3/ha...)'),
    nDose: z.number().min(0).describe('nitrogen applied with the water, in nMeasure'),
    nMeasure: measureSchema,
    pDose: z.number().min(0).describe('phosphorus applied with the water, in pMeasure'),
    pMeasure: measureSchema,
  })
  .meta({ id: 'Fertigation' });

const requestFields = {
  type: z.literal('AgriFertilize'),
  dateStart: daySchema.describe('first day of the application, DD-MM-YYYY (Madrid)'),
  dateEnd: daySchema.optional().describe('last day, DD-MM-YYYY; default: dateStart'),
  idcp: idcpList(),
  material: fertilizerMaterialSchema,
  kind: coded('TypeFertilization', 'TIPO_FERITILIZACION', 'FertilizationKind'),
  method: coded('TypeFertilizationMethod', 'METODO_APLICACION_FERTILIZANTE', 'FertilizationMethod'),
  dose: z.number().positive().finite(),
  measure: measureSchema.describe('a UNIDADES_MEDIDA code of mass or volume per area (kg/ha, t/ha, L/ha, m3/ha)'),
  surface: decimalText()
    .optional()
    .describe(
      'fertilized area in hectares: above 0 and no more than the locations (each enclosure once); default: all of them',
    ),
  sludge: z
    .boolean()
    .optional()
    .describe(
      'sewage sludge applied (SIEX AplicacionLodos): it follows the material, true for MAT_FERTI 22 (sewage sludge, ' +
        "RD 1310/1990) and false for every other; default: the material's; a value that says otherwise is 422 " +
        'SLUDGE_FLAG_MISMATCH',
    ),
  sustainableInputs: z
    .boolean()
    .optional()
    .describe(
      'the holding manages its inputs sustainably under RD 1051/2022 (SIEX GestionSostInsu, which the CUE descriptor ' +
        "requires of every fertilization); default: the farm's, from the back office. A record for which neither " +
        'says is registered but not exported until one does (exportBlockers)',
    ),
  goodPractices: z
    .array(coded('TypeGoodPractice', 'BUENAS_PRACTICAS_AMBITOS, scope Fertilización', 'GoodPractice'))
    .max(20)
    .refine(unique, 'a good practice appears twice')
    .default([]),
  fertigation: fertigationSchema.optional(),
  machine: z
    .array(machineSchema)
    .max(1)
    .optional()
    .describe("the machine used: SIEX's Fertilizacion block holds one EquipoAplicador"),
  manual: z.boolean().optional().describe('spread by hand'),
  detail: z.string().max(2000).optional(),
};

export const fertilizeRequestSchema = z
  .strictObject(roundTripFields(requestFields))
  .superRefine((r, ctx) => {
    if (r.dateEnd !== undefined && isoOf(r.dateEnd) < isoOf(r.dateStart))
      ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'dateEnd is before dateStart' });
  })
  .meta({ id: 'AgriFertilizeRequest' });

function isoOf(day: string): string {
  const [d, m, y] = day.split('-');
  return `${y}-${m}-${d}`;
}

export type FertilizeRequest = z.infer<typeof fertilizeRequestSchema>;

/** The record as stored and answered: the request as registered, with its id, its last day and the nitrogen it applies. */
export const fertilizeRecordSchema = z
  .object({
    id: z.string().describe('urn:ngsi-ld:AgriFertilize:<n>').meta(READ_ONLY),
    ...requestFields,
    dateEnd: z.string().describe('last day, DD-MM-YYYY (dateStart when the request gave none)'),
    ...recordStamps,
    nitrogen: z
      .object({
        kgPerHa: z
          .number()
          .describe('kg of N per hectare the application brings: dose × N total, through the density for a volume'),
        livestockManure: z
          .boolean()
          .describe('livestock manure: counted against 170 kg N/ha a campaign on a nitrate-vulnerable enclosure'),
      })
      .meta({ id: 'FertilizationNitrogen' })
      // readOnly on the record's member, beside its $ref, where a client stripping a read-back record looks.
      .meta(READ_ONLY),
  })
  .meta({ id: 'AgriFertilizeStored' });

/** The record as every answer shows it (registration, amendment, list, read): the stored record and whether SIEX would take it now. */
export const fertilizeRecordViewSchema = fertilizeRecordSchema
  .extend(exportabilityFields)
  .meta({ id: 'AgriFertilize' });

export type FertilizeRecordView = z.infer<typeof fertilizeRecordViewSchema>;

/** An amendment, as for treatments. */
export const fertilizationPatchSchema = mergePatchSchemaOf(
  'AgriFertilizeRequest',
  '`{"dose": 25}` corrects the dose, `{"material": {"productName": "..."}}` completes the material, ' +
    '`{"detail": null}` removes the detail.',
  'AgriFertilizePatch',
);

export const fertilizationListQuerySchema = z.object({
  ...listPeriod('the first day of the application'),
  material: siexId.optional().describe('only records of this material (MAT_FERTI code)'),
  ...recordListFilters,
});
