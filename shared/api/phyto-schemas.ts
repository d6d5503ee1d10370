import { z } from 'zod';
import { daySchema } from '../domain/day-schema';
import { PRODUCT_CODE_RE, ROPO_RE } from '../domain/nif';
import { pestKinds } from '../domain/pest-kind';
import { DATE_TIME_PATTERN, DAY_PATTERN, queryInteger, recordListFilters } from './query-params';
import { mergePatchSchemaOf, recordParamsSchemaOf } from './record-path-and-patch';

/**
 * The phytosanitary application: the request the ERP sends and the record the gateway stores and returns. Field
 * names and types are the spec's; the optional SIEX fields (docs/architecture.md, "Export pipeline") use the stored record's names.
 */
/**
 * Every change of a record is one entity-group transaction of at most 100 operations, and the largest is an amendment
 * of its product and date: the history rows of every enclosure for the old product and for the new one, plus six (the
 * record under its old and new key, its pointer, its version, the idempotency entry, the list token). So a record
 * names at most (100 - 6) / 2 locations: any amendment of it can be written whole.
 */
export const MAX_IDCP_PER_RECORD = 47;

/** Products a tank mix adds to the main one: the main product and up to five more in one pass. */
const MAX_MIX_ITEMS = 5;

/**
 * A history row is kept per product and enclosure, so a mix of P products over L locations writes P × L of them, and
 * an amendment that replaces every product (or every location) writes the old ones and the new ones: 2 × P × L + 6
 * operations. Bounding P × L by the single product's location bound (MAX_IDCP_PER_RECORD) keeps every amendment one
 * transaction.
 */

const flag = z.enum(['0', '1']);

/**
 * Records round-trip (issue 26): a record read back, less its read-only fields, is a valid request. So every optional
 * field also takes `null` for "not given" (what the record shows for it, and what ERP serializers write), and every
 * amount the record writes as text takes that text as well as a number.
 */
function optional<T extends z.ZodType>(schema: T) {
  return schema
    .nullable()
    .transform((v): Exclude<z.output<T>, null> | undefined =>
      v === null ? undefined : (v as Exclude<z.output<T>, null>),
    )
    .optional();
}

/** An optional field whose absence means `fallback` (the record's neutral value): null says the same. */
function orDefault<T extends z.ZodType<string>>(schema: T, fallback: string) {
  return schema
    .nullable()
    .transform((v) => v ?? fallback)
    .default(fallback);
}

const DECIMAL_RE = /^\d+(\.\d+)?$/;
const DECIMAL_MESSAGE = 'a non-negative decimal number, e.g. 2.5 or "2.5"';
const decimalString = z.string().max(20).regex(DECIMAL_RE, DECIMAL_MESSAGE);

/** A number as the record writes it: its shortest decimal form, never an exponent (1e-7 is 0.0000001). */
function plainDecimal(n: number): string {
  const text = String(n);
  return /e/i.test(text) ? n.toFixed(20).replace(/\.?0+$/, '') : text;
}

/**
 * An optional non-negative amount, stored as text with every digit it was given: a JSON number, or decimal text as
 * the record returns it; null, or the record's '' for none, is not given.
 */
const optionalDecimal = z
  .union([
    z.number().nonnegative().finite().transform(plainDecimal).pipe(decimalString),
    decimalString,
    z.literal(''),
    z.null(),
  ])
  .transform((v) => (v === '' || v === null ? undefined : v))
  .optional();
const dtDescription = 'total amount of product applied, in mdt';
/**
 * Free text is bounded: the stored record echoes it and must fit in one table entity (MAX_DOC_CHARS), so an unbounded
 * name in a body under the 1 MB limit would otherwise end in a 500 instead of a 400.
 */
const NAME_MAX = 200;
const name = () => z.string().max(NAME_MAX);

export const measureSchema = z
  .strictObject({
    type: z.literal('Measure'),
    name: name(),
    symbol: z.string().min(1).max(20),
    code: z.number().int().positive().describe('SIEX unit code (catalogue UNIDADES_MEDIDA)'),
  })
  .meta({ id: 'Measure' });

const infectionSchema = z
  .strictObject({
    type: z.literal('TypeInfection'),
    kind: z.enum(pestKinds),
    id: z.string().max(10).regex(/^\d+$/, 'SIEX code as text'),
    name: orDefault(name(), ''),
  })
  .meta({
    id: 'Infection',
    description:
      'pest, disease, weed or growth regulation treated (SIEX catalogues ENFERMEDADES, PLAGAS, MALAS_HIERBAS, REGULADORES_CRECIMIENTO)',
  });

const justificationSchema = z
  .strictObject({
    type: z.literal('TypeJustification'),
    id: z.string().max(10).regex(/^\d+$/),
    name: orDefault(name(), ''),
  })
  .meta({ id: 'Justification', description: 'SIEX catalogue JUSTIFICACION_ACTUACION' });

const efficacySchema = z
  .strictObject({
    type: z.literal('TypeEfficacy'),
    id: z
      .string()
      .max(10)
      .regex(/^\d*$/)
      .describe("SIEX code; '' (how a record shows an efficacy not reported yet) means none"),
    name: orDefault(name(), ''),
    detail: orDefault(z.string().max(2000), ''),
  })
  .meta({ id: 'Efficacy', description: 'SIEX catalogue EFICACIA_TRATAMIENTO' });

/** Two machines without a ROMA number must tell themselves apart: the ERP's `ref`, else their type and name. */
function machineKey(m: { id: string; name: string; roma: string; ref: string }): string {
  return m.roma ? `roma:${m.roma}` : m.ref ? `ref:${m.ref}` : `une:${m.id}:${m.name}`;
}

export const machineSchema = z
  .strictObject({
    type: z.literal('Machine'),
    // SIEX takes the type as TipoMaquinariaUNE, at most 12 characters (codes look like 060303021 or 0630320_88).
    id: z
      .string()
      .regex(/^[0-9A-Za-z_]{1,12}$/, 'UNE machine type code: up to 12 letters, digits or _')
      .describe('UNE machine type code (SIEX catalogue TIPO_MAQUINA_UNE), e.g. 060303021 for an air-blast sprayer'),
    name: orDefault(name(), ''),
    roma: orDefault(z.string().max(50), '').describe('official machinery register (ROMA) number, when registered'),
    inspection: orDefault(z.union([z.literal(''), daySchema]), '').describe(
      'day of its last official inspection (ITEAF), DD-MM-YYYY: not after the application nor more than 3 years before it (RD 1702/2011 art. 6), else 422 EQUIPMENT_INSPECTION_EXPIRED; not checked for hand-held and backpack types',
    ),
    registered: optional(daySchema).describe(
      'day the machine was first registered (ROMA), DD-MM-YYYY: a machine not inspected yet passes when this is less than 5 years before the application',
    ),
    ref: orDefault(z.string().max(50), '').describe(
      "the ERP's own identifier of this machine: SIEX's IdEquipoAplicador when it has no ROMA number",
    ),
  })
  .meta({ id: 'Machine' });

const machinesSchema = z
  .array(machineSchema)
  .max(10)
  .superRefine((machines, ctx) => {
    const seen = new Set<string>();
    machines.forEach((m, i) => {
      const key = machineKey(m);
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: 'two machines cannot be told apart: give each its ROMA number or a ref',
        });
      seen.add(key);
    });
  });

const advisorSchema = z
  .strictObject({
    type: z.literal('UserMetadata'),
    ropo: z.string().regex(ROPO_RE, 'ROPO number ES-XXXXXXXX'),
    nif: optional(z.string().min(1).max(20)).describe(
      "the advisor's NIF or NIE: optional; with it, a card that fails the check is answered with why (not in force, no advisor registration); without it, or with another person's, only ADVISOR_NOT_RECOGNISED",
    ),
  })
  .meta({
    id: 'Advisor',
    description:
      "the advisor (asesor) who validated or recommended the treatment, by ROPO number: a card in force on the application date with the advisor registration (RD 1311/2012, arts. 11-12). SIEX's AsesorValidacion, with `reviewed` and `recipe`",
  });

const phenologySchema = z
  .strictObject({
    type: z.literal('TypePhenology'),
    id: z.string().max(10).regex(/^\d+$/, 'SIEX code as text'),
    name: orDefault(name(), ''),
  })
  .meta({ id: 'Phenology', description: 'phenological stage of the crop (SIEX catalogue EST_FENOLOGICO)' });

/** Optional at registration: efficacy is often known only later. Export settles a record without them as an error. */
const optionalSiexFields = {
  infection: optional(infectionSchema),
  tj: optional(
    z
      .array(justificationSchema)
      .max(10)
      .refine((a) => new Set(a.map((t) => t.id)).size === a.length, 'a justification code appears twice'),
  ),
  efficacy: optional(efficacySchema.transform((e) => (e.id === '' ? null : e))),
  machine: optional(machinesSchema).describe(
    'the machines used, each exported to SIEX as one EquipoAplicador (hand-held and backpack types as manual)',
  ),
  manual: optional(z.boolean()).describe(
    'true when the machines were worked by hand (a lance from a tank): each is exported with AplicacionManual; a hand-held or backpack UNE type is so anyway. It names no equipment itself: a record without a machine is not exported',
  ),
  advisor: optional(advisorSchema),
  phenology: optional(phenologySchema),
  detail: optional(z.string().max(2000)),
  batch: optional(z.string().max(100)),
  soup: optionalDecimal.describe(
    'spray mixture prepared for the treated area, litres: with the area it gives litres per hectare, so a per-hectare dose compares with a concentration label and the reverse',
  ),
  dt: optionalDecimal.describe(dtDescription),
  mdt: optional(measureSchema),
  st: optionalDecimal.describe('treated area, in mst (ha or m2): above 0 and no more than the locations'),
  mst: optional(measureSchema),
  surface: optionalDecimal.describe(
    'total treated area in hectares: above 0 and no more than the locations (each enclosure once)',
  ),
  preventive: optional(flag),
  distributed: optional(flag),
  reviewed: optional(flag),
  pp: optional(z.string().max(100)),
  speed: optionalDecimal,
  recipe: optional(z.string().max(100)),
};

/** A product as the request names it: the main one, or one of a mix. */
const productRefSchema = z.strictObject({
  type: z.literal('TypePhytosanitary'),
  name: name().describe('commercial name; the register name is stored'),
  code: z.string().regex(PRODUCT_CODE_RE, 'product code ES-XXXXX'),
});
/** A dose: a JSON number, or decimal text as the record returns it, judged as the number it is. */
const doseSchema = z
  .union([z.number().positive().finite(), decimalString.transform(Number)])
  .pipe(z.number().positive().finite())
  .describe('the dose in `measure`: a number, or decimal text ("0.5")');

/** An amount without its unit, or a unit without its amount, says nothing. */
function pairedAmounts(
  r: Partial<Record<'st' | 'dt', string>> & Partial<Record<'mst' | 'mdt', unknown>>,
  ctx: z.RefinementCtx,
  pairs: readonly (readonly ['st' | 'dt', 'mst' | 'mdt'])[],
): void {
  for (const [value, unit] of pairs) {
    if (r[value] !== undefined && !r[unit])
      ctx.addIssue({ code: 'custom', path: [unit], message: `required with ${value}` });
    if (r[unit] && r[value] === undefined)
      ctx.addIssue({ code: 'custom', path: [value], message: `required with ${unit}` });
  }
}

export const mixItemSchema = z
  .strictObject({
    subtype: productRefSchema,
    dose: doseSchema,
    measure: measureSchema,
    dt: optionalDecimal.describe(dtDescription),
    mdt: optional(measureSchema),
    batch: optional(z.string().max(100)),
    infection: optional(infectionSchema).describe(
      "the pest this product is applied against; without it, the record's infection",
    ),
  })
  .superRefine((item, ctx) => pairedAmounts(item, ctx, [['dt', 'mdt']]))
  .meta({
    id: 'MixItem',
    description:
      'a further product of the same tank, applied in the same pass: judged against its own label as if applied alone',
  });

export type MixItem = z.infer<typeof mixItemSchema>;

/**
 * The OpenAPI document's example of a mix: copper against olive leaf spot in the same tank as the main product (the
 * demo's MICROTHIOL against sooty mould on olive), as the demo data accepts it. A unit test parses it.
 */
export const mixExample = [
  {
    subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA 20 WP', code: 'ES-19616' },
    dose: 0.6,
    measure: { type: 'Measure', name: 'Porcentaje', symbol: '%', code: 14 },
    batch: 'L-2611',
    infection: { type: 'TypeInfection', kind: 'enfermedad', id: '532', name: 'Repilo del olivo' },
  },
] as const satisfies z.input<typeof mixItemSchema>[];

export const phytoRequestSchema = z
  .strictObject({
    type: z.literal('AgriPhytosanitary'),
    dateApplication: z
      .string()
      .meta({ pattern: DATE_TIME_PATTERN })
      .describe('DD-MM-YYYY HH:mm:ss, Spanish local time'),
    subtype: productRefSchema,
    dose: doseSchema,
    measure: measureSchema,
    mix: optional(z.array(mixItemSchema).min(1).max(MAX_MIX_ITEMS))
      .describe(
        `a tank mix: up to ${MAX_MIX_ITEMS} further products applied with the main one in the same pass; date, locations, ` +
          `area, spray volume, applicator, machines, justification and efficacy are the pass's. Products × idcp at most ${MAX_IDCP_PER_RECORD}`,
      )
      .meta({ examples: [mixExample] }),
    idcp: z
      .array(z.string().regex(/^[1-9]\d{0,9}$/, 'idcp from the identifier operation'))
      .min(1)
      .max(MAX_IDCP_PER_RECORD)
      .refine((a) => new Set(a).size === a.length, 'an idcp appears twice'),
    applicator: z.strictObject({
      user: z.strictObject({
        type: z.literal('UserMetadata'),
        nif: z.string().min(1).max(20),
        ropo: z.string().regex(ROPO_RE, 'ROPO number ES-XXXXXXXX'),
      }),
    }),
    ...optionalSiexFields,
  })
  .superRefine((r, ctx) => {
    pairedAmounts(r, ctx, [
      ['st', 'mst'],
      ['dt', 'mdt'],
    ]);
    if (!r.mix) return;
    // One product once per pass: its dose is one figure, and its count and interval one application per enclosure.
    const seen = new Set([r.subtype.code]);
    r.mix.forEach((item, i) => {
      if (seen.has(item.subtype.code))
        ctx.addIssue({
          code: 'custom',
          path: ['mix', i, 'subtype', 'code'],
          message: `${item.subtype.code} is already a product of this record`,
          params: { code: 'PRODUCT_REPEATED' },
        });
      seen.add(item.subtype.code);
    });
    const products = 1 + r.mix.length;
    if (products * r.idcp.length > MAX_IDCP_PER_RECORD)
      ctx.addIssue({
        code: 'custom',
        path: ['mix'],
        message: `${products} products on ${r.idcp.length} locations: products × locations must be at most ${MAX_IDCP_PER_RECORD} (split the locations over several records)`,
        params: { code: 'MIX_TOO_LARGE' },
      });
  })
  .meta({ id: 'AgriPhytosanitaryRequest' });

export type PhytoRequest = z.infer<typeof phytoRequestSchema>;

const companySchema = z.object({ type: z.literal('Company'), id: z.number().int(), name: z.string(), nif: z.string() });
const substanceSchema = z.object({ type: z.literal('Substance'), id: z.string(), name: z.string() });

/** A product as the record shows it: the register's data on it. */
/** What a record shows that a request does not send: the OpenAPI document marks it `readOnly`. */
const READ_ONLY = { readOnly: true } as const;

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
    subtype: recordProductSchema,
    dose: z.string(),
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
 * Whether SIEX would take a record now, as every answer of every record kind shows it: worked out by the export's own
 * mapping on each answer, not stored.
 */
export const exportabilityFields = {
  exportable: z
    .boolean()
    .describe('whether an export would send the record now: true exactly when `exportBlockers` is empty')
    .meta(READ_ONLY),
  exportBlockers: z
    .array(
      z.object({
        code: z.literal('MISSING_DATA'),
        message: z.string().describe('what SIEX needs and the record (or its farm) lacks'),
      }),
    )
    .describe(
      'every reason an export would refuse the record now (the job would settle it MISSING_DATA with these messages); empty when it can be sent',
    )
    .meta(READ_ONLY),
};

/**
 * The record as every answer shows it (registration, amendment, list, read): the stored record and whether SIEX would
 * take it now. Worked out on each answer, not stored: the farm's data (REA code, DGCs) can change under a record.
 */
export const phytoRecordViewSchema = phytoRecordSchema
  .extend({
    subtype: recordProductViewSchema,
    mix: z
      .array(recordMixItemSchema.extend({ subtype: recordProductViewSchema }))
      .optional()
      .describe('the further products of a tank mix, in the order registered; absent for a single product'),
    ...exportabilityFields,
  })
  .meta({ id: 'AgriPhytosanitary' });

export type PhytoRecordView = z.infer<typeof phytoRecordViewSchema>;

export const registerQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
  exported: queryInteger(0, 1, '0 or 1')
    .optional()
    .describe('1 records what was already sent to SIEX by other means; it will not be exported again'),
});

/** The treatment named in the path. */
export const recordParamsSchema = recordParamsSchemaOf('AgriPhytosanitary');

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
