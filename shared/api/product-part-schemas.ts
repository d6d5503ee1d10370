import { z } from 'zod';
import { PRODUCT_CODE_RE, ROPO_RE } from '../domain/nif';
import { pestKinds } from '../domain/pest-kind';
import { listPeriod, recordListFilters } from './query-params';
import { decimalText, machineSchema, measureSchema, name, optional, orDefault } from './record-fields';

/** Products a tank mix adds to the main one: the main product and up to five more in one pass. */
export const MAX_MIX_ITEMS = 5;

/**
 * The wire of the product part every treatment kind shares (shared/plant-protection/product-part.ts): the product and
 * its dose, a tank mix, the pest, the justifications, the efficacy, the machines, the applicator and the advisor, in
 * the treatments' field names and types (the spec's). Each treatment kind's request adds what it treats.
 */

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
export const optionalDecimal = z
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

export const machinesSchema = z
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

/** A product as the request names it: the main one, or one of a mix. */
export const productRefSchema = z.strictObject({
  type: z.literal('TypePhytosanitary'),
  name: name().describe('commercial name; the register name is stored'),
  code: z.string().regex(PRODUCT_CODE_RE, 'product code ES-XXXXX'),
});
/** A dose: a JSON number, or decimal text as the record returns it, judged as the number it is. */
export const doseSchema = z
  .union([z.number().positive().finite(), decimalString.transform(Number)])
  .pipe(z.number().positive().finite())
  .describe('the dose in `measure`: a number, or decimal text ("0.5")');

/** An amount without its unit, or a unit without its amount, says nothing. */
export function pairedAmounts(
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

/**
 * A product at its dose, with the total amount used when the request states it: what every product of a record has,
 * its mix's included (CUE TipoProducto 1).
 */
export const productDoseFields = {
  subtype: productRefSchema,
  dose: doseSchema,
  measure: measureSchema,
  dt: optionalDecimal.describe(dtDescription),
  mdt: optional(measureSchema),
};

export const mixItemSchema = z
  .strictObject({
    ...productDoseFields,
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

/** The applicator: a person with a ROPO card, by NIF and card number (RD 1311/2012 art. 18). */
export const applicatorSchema = z.strictObject({
  user: z.strictObject({
    type: z.literal('UserMetadata'),
    nif: z.string().min(1).max(20),
    ropo: z.string().regex(ROPO_RE, 'ROPO number ES-XXXXXXXX'),
  }),
});

/**
 * The optional fields of the product part, as every treatment kind's request has them: efficacy is often known only
 * later, and an export settles a record without what SIEX requires as an error.
 */
export const partSiexFields = {
  infection: optional(infectionSchema),
  tj: optional(
    z
      .array(justificationSchema)
      .max(10)
      .refine((a) => new Set(a.map((t) => t.id)).size === a.length, 'a justification code appears twice'),
  ),
  efficacy: optional(efficacySchema.transform((e) => (e.id === '' ? null : e))),
  advisor: optional(advisorSchema),
  detail: optional(z.string().max(2000)),
  batch: optional(z.string().max(100)),
  dt: optionalDecimal.describe(dtDescription),
  mdt: optional(measureSchema),
};

/** One product once per pass: its dose is one figure (and, on a field, its count one application per enclosure). */
export function productsOnce(
  r: { subtype: { code: string }; mix?: { subtype: { code: string } }[] },
  ctx: z.RefinementCtx,
): void {
  listedOnce(r.mix ?? [], 'mix', ctx, [r.subtype.code]);
}

/** Each product of a list (`field`) once, and none of those the record already names (`before`). */
export function listedOnce(
  items: readonly { subtype: { code: string } }[],
  field: string,
  ctx: z.RefinementCtx,
  before: readonly string[] = [],
): void {
  const seen = new Set(before);
  items.forEach((item, i) => {
    if (seen.has(item.subtype.code))
      ctx.addIssue({
        code: 'custom',
        path: [field, i, 'subtype', 'code'],
        message: `${item.subtype.code} is already a product of this record`,
        params: { code: 'PRODUCT_REPEATED' },
      });
    seen.add(item.subtype.code);
  });
}

/**
 * The product part of a treatment that is not of growing crops (produce, a store): the product at its dose,
 * a tank mix, the applicator and the optional SIEX fields. Its machines are each one `EquipoAplicador` by its ROMA
 * number or its ref: these blocks have no `AplicacionManual`, so there is no `manual`; a hand application names its
 * hand-held equipment as a machine.
 */
export const productPartFields = {
  subtype: productRefSchema,
  dose: doseSchema,
  measure: measureSchema,
  mix: optional(z.array(mixItemSchema).min(1).max(MAX_MIX_ITEMS)).describe(
    `a tank mix: up to ${MAX_MIX_ITEMS} further products applied with the main one in the same pass, each judged against its own label`,
  ),
  applicator: applicatorSchema,
  ...partSiexFields,
  machine: optional(machinesSchema).describe(
    'the equipment used, each exported to SIEX as one EquipoAplicador by its ROMA number, else its ref (a hand application names its hand-held equipment)',
  ),
};

/** The product part's cross-field checks: a total with its unit, each product once. */
export function refinePart(
  r: { subtype: { code: string }; mix?: { subtype: { code: string } }[]; dt?: string; mdt?: unknown },
  ctx: z.RefinementCtx,
): void {
  pairedAmounts(r, ctx, [['dt', 'mdt']]);
  productsOnce(r, ctx);
}

const { idcp: _noLocations, ...exportFilters } = recordListFilters;

/**
 * The list query of a record that names no crop location (produce, a store, seed): the period on the day
 * `on`, the kind's `own` filters, the export state.
 */
export function unplacedListQuery<F extends z.ZodRawShape>(on: string, own: F) {
  return { ...listPeriod(on), ...own, ...exportFilters };
}

/** The list query of a treatment of produce or a store: by its main product. */
export const partListQuery = unplacedListQuery('the application day', {
  product: z
    .string()
    .regex(PRODUCT_CODE_RE, 'product code ES-XXXXX')
    .optional()
    .describe('only treatments with this main product'),
});
