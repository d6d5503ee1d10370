import { UnitCatalogue } from '../catalog/unit-catalogue';
import { exceeds } from '../domain/units';
import { Violation, violation } from '../domain/errors';
import { IdcpEntry } from '../farms/farm-index';
import { locationsArea } from '../farms/treated-area';

/**
 * The treated area a record states: measured in an area unit of the catalogue (`st` in `mst`), in hectares
 * (`surface`), either, both, or neither (then its locations are treated whole).
 */
export interface StatedArea {
  /** How many locations the record names (known to the farm or not). */
  locations: number;
  measured: { value: string; unit: { code: number; symbol: string } } | null;
  surface: string | null;
}

/** Hectares a measured area stands for, when its unit is an area unit (ha, m2). */
function hectaresOf(value: string, unit: { code: number }, units: UnitCatalogue): number | undefined {
  const d = units.get(unit.code)?.dimension;
  return d && d.measure === 'area' && d.per === null ? Number(value) * d.factor : undefined;
}

/** A figure as messages show it: to four decimals. */
export function fourDecimals(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

/**
 * The treated area: `st` in `mst` (ha or m2) and `surface` (ha), when given, must each be above 0 and no larger than the
 * ground of the record's locations (each SIGPAC enclosure once; a crop's declared area where the REA gives one), and
 * say the same when both are given. Without them, the whole ground is treated. The hectares are returned for the rules
 * that need them (a treatment's spray volume per hectare).
 */
export function treatedAreaRules(
  area: StatedArea,
  units: UnitCatalogue,
  entries: IdcpEntry[],
): { hectares: number | undefined; violations: Violation[] } {
  const ground = locationsArea(entries);
  const violations: Violation[] = [];
  const known = entries.length === area.locations;
  const groundWords = entries.some((e) => e.area !== undefined)
    ? "the crops' declared areas, each SIGPAC enclosure at most once"
    : 'each SIGPAC enclosure counted once';
  const check = (hectares: number, path: string, shown: string): number | undefined => {
    if (!(hectares > 0)) {
      violations.push(violation('TREATED_AREA_INVALID', path, `the treated area must be above 0, not ${shown}`));
      return undefined;
    }
    // Against unknown locations the ground is unknown too: IDCP_NOT_FOUND says what is wrong.
    if (known && exceeds(hectares, ground)) {
      violations.push(
        violation(
          'TREATED_AREA_INVALID',
          path,
          `${shown} is more than the ${fourDecimals(ground)} ha of the record's locations (${groundWords})`,
        ),
      );
      return undefined;
    }
    return hectares;
  };
  let fromSt: number | undefined;
  const { measured, surface } = area;
  // A unit SIEX does not have is UNKNOWN_SIEX_CODE already (the kind's code rules).
  if (measured && units.get(measured.unit.code)) {
    const hectares = hectaresOf(measured.value, measured.unit, units);
    if (hectares === undefined) {
      violations.push(
        violation(
          'TREATED_AREA_INVALID',
          'body.mst.code',
          `mst must be an area unit (ha, m2), not ${measured.unit.symbol}`,
        ),
      );
    } else fromSt = check(hectares, 'body.st', `${measured.value} ${measured.unit.symbol}`);
  }
  const fromSurface = surface === null ? undefined : check(Number(surface), 'body.surface', `${surface} ha`);
  if (fromSt !== undefined && fromSurface !== undefined && Math.abs(fromSt - fromSurface) >= 5e-5) {
    violations.push(
      violation(
        'TREATED_AREA_INVALID',
        'body.surface',
        `surface (${surface} ha) and st (${measured?.value} ${measured?.unit.symbol}) are two different treated areas`,
      ),
    );
  }
  const hectares = violations.length > 0 ? undefined : (fromSt ?? fromSurface ?? (ground > 0 ? ground : undefined));
  return { hectares, violations };
}
