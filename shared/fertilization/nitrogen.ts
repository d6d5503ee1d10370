import { UnitCatalogue } from '../catalog/unit-catalogue';
import { Violation } from '../domain/errors';
import { fertilizationViolation } from './errors';
import { Fertilization } from './fertilization';
import { NUTRIENT } from './material-requirements';

/**
 * The kilograms of nitrogen per hectare a fertilization applies: the dose per hectare in kilograms (a volume through
 * the material's density, kg/L) times its N total, a percentage of its mass (MAT_FERTI's first datum is "N total"): the
 * unit of the 170 kg N/ha limit (Directive 91/676/EEC, Annex III.2). A material that states no N total brings none.
 *
 * The dose must be a mass or a volume per area: what else would a per-hectare nitrogen figure come from.
 */
export type NitrogenResult = { kgPerHa: number; violations: [] } | { kgPerHa: undefined; violations: Violation[] };

export function nitrogenPerHa(f: Fertilization, units: UnitCatalogue): NitrogenResult {
  const kg = nutrientKgPerHa(f, units, NUTRIENT.nTotal);
  if (kg === undefined)
    return {
      kgPerHa: undefined,
      violations: [
        fertilizationViolation(
          'FERTILIZER_DOSE_UNIT',
          'body.measure.code',
          `the dose must be a mass or a volume per area (kg/ha, t/ha, L/ha, m3/ha), not ${f.unit.symbol}`,
        ),
      ],
    };
  if (kg === null)
    return {
      kgPerHa: undefined,
      violations: [
        fertilizationViolation(
          'MATERIAL_DATA_MISSING',
          'body.material.density',
          `the dose is a volume (${f.unit.symbol}) and the nutrients are by mass: give the material's density in kg/L`,
        ),
      ],
    };
  return { kgPerHa: kg, violations: [] };
}

/**
 * The kilograms per hectare of one nutrient (a MACRONUTRIENTES code: N total, P2O5 total, K2O) the dose brings: the
 * dose in kg/ha (a volume through the material's density, kg/L) times the nutrient's share of the material's mass.
 * Undefined when the dose is not a mass or a volume per area; null when it is a volume of a material of no stated
 * density and the nutrient is in it (a nutrient the material does not state brings none, whatever the unit).
 */
export function nutrientKgPerHa(f: Fertilization, units: UnitCatalogue, nutrient: number): number | null | undefined {
  const d = units.get(f.unit.code)?.dimension;
  if (!d || d.per !== 'area' || (d.measure !== 'mass' && d.measure !== 'volume')) return undefined;
  const percent = f.material.nutrients.find((n) => n.code === nutrient)?.percent ?? 0;
  if (percent === 0) return 0;
  const perHa = f.dose * d.factor;
  if (d.measure === 'mass') return perHa * (percent / 100);
  return f.material.density === null ? null : perHa * f.material.density * (percent / 100);
}
