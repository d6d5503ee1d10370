import { UnitCatalogue } from '../catalog/unit-catalogue';
import { Violation } from '../domain/errors';
import { irrigationViolation } from './errors';
import { Irrigation } from './irrigation';

/**
 * The irrigation's water. RD 1051/2022 art. 5 asks the notebook for the irrigation's dose; the CUE's `Riego` takes it
 * as a `Cantidad` in a `UnidadMedida`, and FEGA's Anexo V lists m3 and L as that member's units (as the CUE research
 * quotes it). The ERP may give the water of the whole irrigation (a volume) or per hectare of its locations (a volume
 * per area, as a meter read and a dose are both kept on farms); SIEX is always sent a total, in m3 (see
 * `cubicMetresOn`, and the README's decision table).
 */
type WaterUnit = { perArea: boolean; litres: number };

/** What one `unit` of the water is in litres (of the whole, or per hectare); undefined: not a volume. */
function waterUnit(code: number, units: UnitCatalogue): WaterUnit | undefined {
  const d = units.get(code)?.dimension;
  if (!d || d.measure !== 'volume' || (d.per !== null && d.per !== 'area')) return undefined;
  return { perArea: d.per === 'area', litres: d.factor };
}

/** The water must be a volume, of the whole irrigation or per area: anything else has no meaning as water. */
export function waterUnitRules(i: Irrigation, units: UnitCatalogue): Violation[] {
  if (waterUnit(i.unit.code, units)) return [];
  return [
    irrigationViolation(
      'IRRIGATION_UNIT',
      'body.measure.code',
      `the water must be a volume (m3, L) or a volume per area (m3/ha, L/m2), not ${i.unit.symbol}`,
    ),
  ];
}

const LITRES_PER_M3 = 1000;

/** The water in cubic metres: of the whole irrigation, or per hectare of its locations (`perHa`). */
export interface Water {
  m3: number;
  perHa: boolean;
}

/** The request's water in cubic metres, through the units catalogue; undefined for a unit that is not water's. */
export function waterOf(i: Irrigation, units: UnitCatalogue): Water | undefined {
  const u = waterUnit(i.unit.code, units);
  return u && { m3: (i.quantity * u.litres) / LITRES_PER_M3, perHa: u.perArea };
}

/**
 * The cubic metres of water that went on `hectares` of the irrigation's `totalHectares`: water per hectare times those
 * hectares; the water of the whole, its share by area. Undefined when the locations have no area to share it by.
 */
export function cubicMetresOn(water: Water, hectares: number, totalHectares: number): number | undefined {
  if (water.perHa) return water.m3 * hectares;
  if (!(totalHectares > 0)) return undefined;
  return (water.m3 * hectares) / totalHectares;
}
