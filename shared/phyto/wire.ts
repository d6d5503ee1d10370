import { z } from 'zod';
import { DATE_TIME_PATTERN } from '../api/query-params';
import {
  applicatorSchema,
  doseSchema,
  machinesSchema,
  MAX_MIX_ITEMS,
  mixItemSchema,
  optionalDecimal,
  pairedAmounts,
  partSiexFields,
  productsOnce,
  productRefSchema,
} from '../api/product-part-schemas';
import { idcpList, MAX_IDCP_PER_RECORD, measureSchema, name, optional, orDefault } from '../api/record-fields';
import { phytoCode } from './errors';

/**
 * The phytosanitary application as the ERP sends it (the record it is answered with: wire-record.ts). Field names and
 * types are the spec's; the optional SIEX fields (docs/architecture.md, "Export pipeline") use the stored record's names.
 */

/**
 * A history row is kept per product and enclosure, so a mix of P products over L locations writes P × L of them, and
 * an amendment that replaces every product (or every location) writes the old ones and the new ones: 2 × P × L + 6
 * operations. Bounding P × L by the single product's location bound (MAX_IDCP_PER_RECORD) keeps every amendment one
 * transaction.
 */

export const flag = z.enum(['0', '1']);

export const phenologySchema = z
  .strictObject({
    type: z.literal('TypePhenology'),
    id: z.string().max(10).regex(/^\d+$/, 'SIEX code as text'),
    name: orDefault(name(), ''),
  })
  .meta({ id: 'Phenology', description: 'phenological stage of the crop (SIEX catalogue EST_FENOLOGICO)' });

/** Optional at registration: efficacy is often known only later. Export settles a record without them as an error. */
const optionalSiexFields = {
  infection: partSiexFields.infection,
  tj: partSiexFields.tj,
  efficacy: partSiexFields.efficacy,
  machine: optional(machinesSchema).describe(
    'the machines used, each exported to SIEX as one EquipoAplicador (hand-held and backpack types as manual)',
  ),
  manual: optional(z.boolean()).describe(
    'true when the machines were worked by hand (a lance from a tank): each is exported with AplicacionManual; a hand-held or backpack UNE type is so anyway. It names no equipment itself: a record without a machine is not exported',
  ),
  advisor: partSiexFields.advisor,
  phenology: optional(phenologySchema),
  detail: partSiexFields.detail,
  batch: partSiexFields.batch,
  soup: optionalDecimal.describe(
    'spray mixture prepared for the treated area, litres: with the area it gives litres per hectare, so a per-hectare dose compares with a concentration label and the reverse',
  ),
  dt: partSiexFields.dt,
  mdt: partSiexFields.mdt,
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

export type MixItem = z.infer<typeof mixItemSchema>;

const siexId = z.string().max(10).regex(/^\d+$/, 'SIEX code as text');

/**
 * The most an `OtrasActuacionesFito.Cantidad` can say: the descriptor gives the section's Cantidad number(8,2)
 * (cue-fields.ts), six digits before the point.
 */
const MAX_MEASURE_QUANTITY = 999_999.99;

/**
 * A non-chemical measure taken instead of a product (RD 1311/2012 Anexo III; CUE `TratamFito.OtrasActuacionesFito`,
 * FEGA's descriptor: one measure per block, "excluyente" with the products).
 */
const otherMeasureSchema = z
  .strictObject({
    type: z.literal('TypePhytoMeasure'),
    id: siexId.describe(
      'TIPO_MEDIDA_FITOSANITARIA code (1 release of beneficial organisms, 14 traps, 15 pheromones...)',
    ),
    name: orDefault(name(), ''),
    quantity: z
      .number()
      .positive()
      .max(MAX_MEASURE_QUANTITY)
      .describe('how much, in measure (Cantidad): FEGA makes it obligatory'),
    measure: measureSchema.describe(
      'a UNIDADES_MEDIDA code FEGA lists for a measure: 11 units, 15 units/m2, 16 units/ha, 1 m2, 28 m2 of net/ha, 5 kg, 17 kg/ha',
    ),
    mdfRegistration: optional(
      z
        .string()
        .min(1)
        .max(50)
        .regex(/^[^\n\r]*$/, 'one line'),
    ).describe(
      'number of the means in the Registro de determinados Medios de Defensa Fitosanitaria (NumRegistroMDF): required for measures 1, 14 and 15',
    ),
    goodPractice: optional(
      z
        .strictObject({ type: z.literal('TypeGoodPractice'), id: siexId, name: orDefault(name(), '') })
        .meta({ id: 'PhytoGoodPractice', description: 'BUENAS_PRACTICAS_AMBITOS, scope Fitosanitario' }),
    ),
  })
  .meta({
    id: 'PhytoMeasure',
    description:
      'a non-chemical measure (beneficial organisms, traps, pheromones, nets...) taken instead of a product: the treatment then has no subtype, dose, measure or mix',
  });

/** The fields that name a product: a treatment that is a measure has none of them (FEGA: one or the other). */
const PRODUCT_FIELDS = ['subtype', 'dose', 'measure', 'mix', 'dt', 'mdt'] as const;

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
    subtype: optional(productRefSchema).describe('the product; absent when the treatment is an otherMeasure'),
    dose: optional(z.union([doseSchema, z.literal('').transform(() => undefined)])).describe(
      'the dose in `measure`: a number, or decimal text ("0.5"); absent (or the record\'s "") when the treatment is an otherMeasure',
    ),
    measure: optional(measureSchema),
    otherMeasure: optional(otherMeasureSchema),
    mix: optional(z.array(mixItemSchema).min(1).max(MAX_MIX_ITEMS))
      .describe(
        `a tank mix: up to ${MAX_MIX_ITEMS} further products applied with the main one in the same pass; date, locations, ` +
          `area, spray volume, applicator, machines, justification and efficacy are the pass's. Products × idcp at most ${MAX_IDCP_PER_RECORD}`,
      )
      .meta({ examples: [mixExample] }),
    idcp: idcpList(),
    applicator: applicatorSchema,
    ...optionalSiexFields,
  })
  // Run whatever else failed, so that a missing dose is named beside a missing applicator: the product fields are
  // required only when there is no measure, which the shape alone cannot say.
  .superRefine((r, ctx) => void productOrMeasure(r, ctx), {
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
  .superRefine((r, ctx) => {
    pairedAmounts(r, ctx, [
      ['st', 'mst'],
      ['dt', 'mdt'],
    ]);
    if (r.otherMeasure !== undefined || !r.mix || !r.subtype) return;
    productsOnce({ subtype: r.subtype, mix: r.mix }, ctx);
    const products = 1 + r.mix.length;
    if (products * r.idcp.length > MAX_IDCP_PER_RECORD)
      ctx.addIssue({
        code: 'custom',
        path: ['mix'],
        message: `${products} products on ${r.idcp.length} locations: products × locations must be at most ${MAX_IDCP_PER_RECORD} (split the locations over several records)`,
        params: { code: phytoCode('MIX_TOO_LARGE') },
      });
  })
  .meta({ id: 'AgriPhytosanitaryRequest' });

export type PhytoRequest = z.infer<typeof phytoRequestSchema>;

/**
 * A treatment is a product or a measure, never both (FEGA's descriptor, Anexo V: OtrasActuacionesFito is "excluyente"
 * with ProductosFito; Anexo VI: at least one of them). A measure beside a product is 422 PRODUCT_AND_MEASURE, as the
 * decision table says; without a measure, the product, its dose and its unit are required.
 */
function productOrMeasure(
  r: Partial<Record<(typeof PRODUCT_FIELDS)[number] | 'otherMeasure', unknown>>,
  ctx: z.RefinementCtx,
): void {
  if (r.otherMeasure !== undefined) {
    const given = PRODUCT_FIELDS.filter((f) => r[f] !== undefined);
    for (const field of given)
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `a treatment with otherMeasure names no product: ${field} goes in a treatment of its own`,
        params: { code: phytoCode('PRODUCT_AND_MEASURE') },
      });
    return;
  }
  const missing = (['subtype', 'dose', 'measure'] as const).filter((f) => r[f] === undefined);
  for (const field of missing)
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: 'required (or otherMeasure, for a non-chemical measure)',
      params: { code: 'REQUIRED' },
    });
}
