import { UnitCatalogue } from '../catalog/unit-catalogue';
import { Violation, violation } from '../domain/errors';
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
  const d = units.get(f.unit.code)?.dimension;
  if (!d || d.per !== 'area' || (d.measure !== 'mass' && d.measure !== 'volume')) {
    return {
      kgPerHa: undefined,
      violations: [
        violation(
          'FERTILIZER_DOSE_UNIT',
          'body.measure.code',
          `the dose must be a mass or a volume per area (kg/ha, t/ha, L/ha, m3/ha), not ${f.unit.symbol}`,
        ),
      ],
    };
  }
  const nTotal = f.material.nutrients.find((n) => n.code === NUTRIENT.nTotal)?.percent ?? 0;
  const perHa = f.dose * d.factor;
  if (d.measure === 'volume' && f.material.density === null) {
    // Only when there is nitrogen to count: a volume of a material without N needs no conversion.
    if (nTotal === 0) return { kgPerHa: 0, violations: [] };
    return {
      kgPerHa: undefined,
      violations: [
        violation(
          'MATERIAL_DATA_MISSING',
          'body.material.density',
          `the dose is a volume (${f.unit.symbol}) and the nutrients are by mass: give the material's density in kg/L`,
        ),
      ],
    };
  }
  const kg = (d.measure === 'volume' ? perHa * (f.material.density ?? 0) : perHa) * (nTotal / 100);
  return { kgPerHa: kg, violations: [] };
}
