import { SupplierId } from './fertilizer-supplier';

/**
 * What each fertilizer material must record, as MAT_FERTI's column "Campos a registrar" asks: FEGA's reading of the
 * fertilization section of the farm notebook that RD 1051/2022 requires (art. 4.1; kept as the CUE, RD 1054/2022).
 * The column is free text, so it is read once into this table; a unit test parses the official file and holds the
 * table to it, so a new copy of MAT_FERTI that asks for something else fails the tests instead of passing unchecked.
 *
 * Codes: nutrients are MACRONUTRIENTES codes, treatments TRAT_ESTIERCOLES codes.
 */

/** MACRONUTRIENTES codes the rules name. */
export const NUTRIENT = {
  nTotal: 1,
  nOrganic: 2,
  nNitric: 3,
  nAmmoniacal: 4,
  nUreic: 5,
  p2o5Total: 6,
  p2o5Water: 7,
  p2o5Citrate: 8,
  k2o: 9,
  k2oWater: 10,
  cOrganic: 11,
  cao: 12,
} as const;

export interface MaterialRequirement {
  /** Nutrients the record must give (their content, as a percentage). */
  nutrients: readonly number[];
  /** Nutrients the column marks "(opcional)". */
  optionalNutrients: readonly number[];
  /**
   * "(según la etiqueta del producto)": the listed nutrients are those the label declares, so the record gives at least
   * one of `nutrients` (a straight potash fertilizer declares no nitrogen) rather than all of them.
   */
  byLabel: boolean;
  /** How the supplier may be identified; empty when the column asks for no supplier. */
  supplier: readonly SupplierId[];
  /** The treatments the material may have received ("Tratamiento recibido"); empty when not asked. */
  treatments: readonly number[];
  /** "Nombre" / "Nombre del tipo": the product's name. */
  productName: boolean;
  /** "Metales pesados": the heavy metal contents (sewage sludge, RD 1310/1990). */
  heavyMetals: boolean;
}

const N = NUTRIENT;
const none: MaterialRequirement = {
  nutrients: [],
  optionalNutrients: [],
  byLabel: false,
  supplier: [],
  treatments: [],
  productName: false,
  heavyMetals: false,
};
const manure = (treatments: number[], supplier: SupplierId[] = ['rega', 'nif']): MaterialRequirement => ({
  ...none,
  nutrients: [N.nTotal, N.nOrganic, N.p2o5Total, N.k2o],
  optionalNutrients: [N.nAmmoniacal],
  supplier,
  treatments,
});
const named: MaterialRequirement = { ...none, productName: true };
const waste = (extra: Partial<MaterialRequirement> = {}): MaterialRequirement => ({
  ...none,
  nutrients: [N.nTotal, N.nOrganic, N.p2o5Total, N.cOrganic],
  optionalNutrients: [N.nAmmoniacal],
  supplier: ['nima'],
  ...extra,
});
const labelNutrients = [N.nTotal, N.nNitric, N.nAmmoniacal, N.nUreic, N.p2o5Total, N.p2o5Water, N.p2o5Citrate];

/** TRAT_ESTIERCOLES: none; solid-liquid separation, solid fraction; liquid fraction; NDN effluents. */
export const MANURE_TREATMENT = { none: 1, solid: 2, liquid: 3, ndn: 4 } as const;
const T = MANURE_TREATMENT;

/** MAT_FERTI code → what it must record. */
export const MATERIAL_REQUIREMENTS: Readonly<Record<number, MaterialRequirement>> = {
  0: none,
  1: manure([T.none, T.liquid, T.ndn]),
  2: manure([T.none, T.liquid, T.ndn]),
  3: manure([T.none, T.liquid, T.solid, T.ndn]),
  4: manure([T.none, T.solid]),
  5: manure([T.none, T.solid]),
  6: manure([T.none, T.solid]),
  7: manure([T.none, T.solid]),
  8: manure([T.none, T.solid]),
  9: named,
  10: { ...manure([T.none, T.solid], ['rega', 'nima', 'nif']), nutrients: [N.nTotal, N.nOrganic, N.p2o5Total] },
  11: named,
  12: named,
  13: { ...waste(), supplier: ['nif'] },
  14: { ...none, byLabel: true, nutrients: [...labelNutrients, N.k2oWater] },
  15: { ...none, nutrients: [N.nTotal, N.nOrganic, N.p2o5Total, N.k2o, N.cOrganic] },
  16: { ...none, byLabel: true, nutrients: [...labelNutrients, N.k2oWater, N.cOrganic] },
  17: named,
  18: waste(),
  19: waste(),
  20: waste(),
  21: waste(),
  22: waste({ heavyMetals: true }),
  23: { ...none, nutrients: [N.cao], supplier: ['nima'] },
};
