/**
 * Dose units and how they compare. A dose can only be checked against the authorized range when both are in the
 * same family; within a family each unit has a factor to the family's base unit, so 0.5 kg/ha and 500 g/ha are the
 * same dose. Codes are SIEX unit codes (catalogue UNIDADES_MEDIDA; a unit test checks them against it).
 *
 * The register writes concentrations as "%", meaning kilograms or litres of product per 100 litres of spray: 1 % is
 * therefore 1,000 g/hL (a solid) or 1,000 cc/hL (a liquid). A percentage compares with either; grams and cubic
 * centimetres per hectolitre do not compare with each other (a mass is not a volume).
 */
export type UnitFamily = 'mass-per-area' | 'volume-per-area' | 'concentration';

export interface DoseUnit {
  code: number;
  symbol: string;
  family: UnitFamily;
  /** Multiply by this to express a value in the family's base unit (kg/ha, L/ha, %). */
  factor: number;
  /** For concentrations: what the product is measured in; a percentage is either. */
  measures?: 'mass' | 'volume';
}

export const DOSE_UNITS: readonly DoseUnit[] = [
  { code: 17, symbol: 'kg/ha', family: 'mass-per-area', factor: 1 },
  { code: 49, symbol: 'g/ha', family: 'mass-per-area', factor: 0.001 },
  { code: 29, symbol: 't/ha', family: 'mass-per-area', factor: 1000 },
  { code: 18, symbol: 'L/ha', family: 'volume-per-area', factor: 1 },
  { code: 19, symbol: 'm3/ha', family: 'volume-per-area', factor: 1000 },
  { code: 14, symbol: '%', family: 'concentration', factor: 1 },
  { code: 64, symbol: 'cc/hL', family: 'concentration', factor: 0.001, measures: 'volume' },
  { code: 65, symbol: 'g/hL', family: 'concentration', factor: 0.001, measures: 'mass' },
];

const BY_CODE = new Map(DOSE_UNITS.map((u) => [u.code, u]));

export function doseUnit(code: number): DoseUnit | undefined {
  return BY_CODE.get(code);
}

/** Symbols compare without regard to case or spaces: `l/ha`, `L/Ha` and `L / ha` are one unit. */
export function sameSymbol(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();
  return norm(a) === norm(b);
}

/** `value` expressed in `to`, or null when the two units are of different families (not comparable). */
export function convertDose(value: number, from: DoseUnit, to: DoseUnit): number | null {
  if (from.family !== to.family) return null;
  if (from.measures && to.measures && from.measures !== to.measures) return null;
  return (value * from.factor) / to.factor;
}

/**
 * Dose comparisons tolerate floating-point noise from unit conversion (0.8 % = 800 g/hL must equal 0.8), but not a
 * real excess: the tolerance is a billionth of the limit.
 */
export function exceeds(value: number, limit: number): boolean {
  return value > limit * (1 + 1e-9) + 1e-12;
}

export function fallsShort(value: number, limit: number): boolean {
  return value < limit * (1 - 1e-9) - 1e-12;
}
