import { z } from 'zod';
import { PRODUCT_CODE_RE, ROPO_RE } from '../domain/nif';
import { pestKinds } from '../domain/pest-kind';
import { DATE_TIME_PATTERN } from '../api/query-params';
import {
  decimalText,
  idcpList,
  machineSchema,
  MAX_IDCP_PER_RECORD,
  measureSchema,
  name,
  optional,
  orDefault,
} from '../api/record-fields';

/**
 * The phytosanitary application as the ERP sends it (the record it is answered with: wire-record.ts). Field names and
 * types are the spec's; the optional SIEX fields (docs/architecture.md, "Export pipeline") use the stored record's names.
 */
/** Products a tank mix adds to the main one: the main product and up to five more in one pass. */
const MAX_MIX_ITEMS = 5;

/**
 * A history row is kept per product and enclosure, so a mix of P products over L locations writes P × L of them, and
 * an amendment that replaces every product (or every location) writes the old ones and the new ones: 2 × P × L + 6
 * operations. Bounding P × L by the single product's location bound (MAX_IDCP_PER_RECORD) keeps every amendment one
 * transaction.
 */

export const flag = z.enum(['0', '1']);

const decimalString = decimalText();

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
export const infectionSchema = z
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

export const justificationSchema = z
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

export const advisorSchema = z
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

export const phenologySchema = z
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
    idcp: idcpList(),
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
