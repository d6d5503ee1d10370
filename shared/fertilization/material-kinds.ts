import { MANURE_TREATMENT } from './material-requirements';

/**
 * Livestock manure, what the fertilization rules need to know of MAT_FERTI's materials beyond the data they record:
 * what Directive 91/676/EEC (Annex III.2) and RD 47/2022 (the action programmes of vulnerable zones) limit to
 * 170 kg N/ha a year in nitrate-vulnerable zones. MAT_FERTI's own "Estiércol" rows, whatever the animal.
 */
export const LIVESTOCK_MANURE: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6, 7, 8, 10]);

/**
 * Sewage sludge: MAT_FERTI 22, the treated sludge of urban waste-water plants that RD 1310/1990 regulates on farmland.
 * The CUE's `AplicacionLodos` says whether such sludge was applied, so it follows the material (the paper mills' lime
 * sludge, 23, is not RD 1310/1990's sludge).
 */
const SEWAGE_SLUDGE: ReadonlySet<number> = new Set([22]);

export const isSewageSludge = (material: number): boolean => SEWAGE_SLUDGE.has(material);

/**
 * Slurry (purín, liquid manure): the liquid manures, and pig manure unless it is the solid fraction of a separation.
 * RD 1051/2022 restricts how it may be spread (slurry-rules.ts).
 */
export function isSlurry(material: number, treatment: number | null): boolean {
  if (material === 1 || material === 2) return true;
  return material === 3 && treatment !== MANURE_TREATMENT.solid;
}
