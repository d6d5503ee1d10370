import { z } from 'zod';
import { PRODUCT_CODE_RE } from '../domain/nif';
import { pestKinds } from '../domain/pest-kind';
import { DAY_PATTERN, recordListFilters } from '../api/query-params';
import { exportabilityFields, machineSchema, measureSchema, READ_ONLY } from '../api/record-fields';
import { mergePatchSchemaOf } from '../api/record-path-and-patch';
import { advisorSchema, infectionSchema, justificationSchema } from '../api/product-part-schemas';
import { flag, phenologySchema } from './wire';

/**
 * The phytosanitary application as the gateway stores and answers it, and the other wire shapes of its operations
 * (the record in the path, an amendment, the list's query). The request is wire.ts.
 */
const companySchema = z.object({ type: z.literal('Company'), id: z.number().int(), name: z.string(), nif: z.string() });
const substanceSchema = z.object({ type: z.literal('Substance'), id: z.string(), name: z.string() });

/** A product as the record shows it: the register's data on it. */
const recordProductSchema = z.object({
  type: z.literal('TypePhytosanitary'),
  id: z.number().int().meta(READ_ONLY),
  name: z.string(),
  subtype: z
    .object({
      type: z.literal('SubtypePhytosanitary'),
      id: z.number().int(),
      idpdf: z.string(),
      code: z.string(),
      comp: companySchema,
      subs: substanceSchema,
      detail: z.string(),
      ci: z.array(
        z.object({
          type: z.literal('CropInfection'),
          crop: z.string().describe('SIEX crop code'),
          infection: z.object({ kind: z.enum(pestKinds), id: z.string(), name: z.string() }),
        }),
      ),
    })
    .meta(READ_ONLY),
  tpd: z
    .array(
      z.object({
        type: z.literal('TPD'),
        id: z.number().int(),
        idate: z.string(),
        edate: z.string(),
        ldate: z.string(),
      }),
    )
    .meta(READ_ONLY),
  prod: z.object({ type: z.literal('TypeProduct'), id: z.number().int(), name: z.string() }).meta(READ_ONLY),
});

/** The product as answers show it: the register's data, and its code where a request names it. */
const recordProductViewSchema = recordProductSchema.extend({
  code: z.string().describe("the product code, as a request names it (the register's, `subtype.code`)"),
});

/** The non-chemical measure as the record shows it (the request's `otherMeasure`, names defaulted). */
const recordOtherMeasureSchema = z
  .object({
    type: z.literal('TypePhytoMeasure'),
    id: z.string().describe('TIPO_MEDIDA_FITOSANITARIA code'),
    name: z.string(),
    quantity: z.number(),
    measure: measureSchema,
    mdfRegistration: z.string().optional(),
    goodPractice: z.object({ type: z.literal('TypeGoodPractice'), id: z.string(), name: z.string() }).optional(),
  })
  .describe('the non-chemical measure taken instead of a product; absent for a product');

const recordMixItemSchema = z.object({
  subtype: recordProductSchema,
  dose: z.string(),
  measure: measureSchema,
  dt: z.string(),
  mdt: measureSchema.nullable(),
  batch: z.string(),
  infection: infectionSchema.nullable().describe("the pest this product was applied against; null: the record's"),
  seclimit: z
    .string()
    .describe("this product's safety period in days on the record's crops ('' when none applies)")
    .meta(READ_ONLY),
});

export const phytoRecordSchema = z
  .object({
    id: z.string().meta(READ_ONLY),
    type: z.literal('AgriPhytosanitary'),
    dateApplication: z.string().describe('DD-MM-YYYY HH:mm:ss, Spanish local time (as registered)'),
    dateCreated: z.string().meta(READ_ONLY),
    dateModified: z.string().meta(READ_ONLY),
    subtype: recordProductSchema.nullable().describe('the product; null for a non-chemical measure (otherMeasure)'),
    dose: z.string().describe("the main product's dose; '' for a non-chemical measure"),
    typerisk: z
      .object({ type: z.literal('TypeRisk'), id: z.string(), name: z.string(), detail: z.string() })
      .meta(READ_ONLY),
    infection: infectionSchema.nullable(),
    detail: z.string().nullable(),
    tj: z.array(justificationSchema),
    idtpismv: z.array(z.string()).meta(READ_ONLY),
    distributed: flag,
    reviewed: flag,
    exported: flag.describe('"1" once SIEX holds the record as it is (or it was sent by other means)').meta(READ_ONLY),
    batch: z.string(),
    soup: z.string(),
    measure: measureSchema.nullable(),
    dt: z.string(),
    mdt: measureSchema.nullable(),
    st: z.string(),
    mst: measureSchema.nullable(),
    // Neutral until the client reports it (often after registration): `id` is '' then, so not the request's pattern.
    efficacy: z.object({
      type: z.literal('TypeEfficacy'),
      id: z.string().describe("SIEX code, or '' when not reported"),
      name: z.string(),
      detail: z.string(),
    }),
    preventive: flag,
    pp: z.string(),
    speed: z.string(),
    recipe: z.string(),
    surface: z.string(),
    entrylimit: z.string().meta(READ_ONLY),
    seclimit: z
      .string()
      .describe(
        'pre-harvest interval (plazo de seguridad) in days: the longest of its products\' uses that authorise the application; "NP" when the register says none applies (NO PROCEDE), which is not "0" (0 days); empty when no use states one',
      )
      .meta(READ_ONLY),
    mix: z
      .array(recordMixItemSchema)
      .optional()
      .describe('the further products of a tank mix, in the order registered; absent for a single product'),
    otherMeasure: recordOtherMeasureSchema.optional(),
    machine: z.array(machineSchema),
    manual: z.boolean().describe('applied by hand; false when not said'),
    advisor: advisorSchema.nullable(),
    phenology: phenologySchema.nullable(),
    idcp: z.array(z.string()),
    applicator: z.object({ user: z.object({ type: z.literal('UserMetadata'), nif: z.string(), ropo: z.string() }) }),
    regionalAttributes: z.array(z.record(z.string(), z.unknown())).meta(READ_ONLY),
  })
  .meta({ id: 'AgriPhytosanitaryStored' });

export type PhytoRecord = z.infer<typeof phytoRecordSchema>;

/**
 * The record as every answer shows it (registration, amendment, list, read): the stored record and whether SIEX would
 * take it now. Worked out on each answer, not stored: the farm's data (REA code, DGCs) can change under a record.
 */
export const phytoRecordViewSchema = phytoRecordSchema
  .extend({
    subtype: recordProductViewSchema.nullable().describe('the product; null for a non-chemical measure (otherMeasure)'),
    mix: z
      .array(recordMixItemSchema.extend({ subtype: recordProductViewSchema }))
      .optional()
      .describe('the further products of a tank mix, in the order registered; absent for a single product'),
    ...exportabilityFields,
  })
  .meta({ id: 'AgriPhytosanitary' });

export type PhytoRecordView = z.infer<typeof phytoRecordViewSchema>;

/** An amendment of a treatment. */
export const phytoPatchSchema = mergePatchSchemaOf(
  'AgriPhytosanitaryRequest',
  '`{"efficacy": {...}}` adds the efficacy, `{"dose": 0.4}` corrects the dose, `{"detail": null}` removes the detail.',
  'AgriPhytosanitaryPatch',
);

export const listQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
  dateFrom: z.string().meta({ pattern: DAY_PATTERN }).optional().describe('DD-MM-YYYY, Madrid day, inclusive'),
  dateTo: z.string().meta({ pattern: DAY_PATTERN }).optional().describe('DD-MM-YYYY, Madrid day, inclusive'),
  product: z.string().regex(PRODUCT_CODE_RE, 'product code ES-XXXXX').optional(),
  ...recordListFilters,
});
