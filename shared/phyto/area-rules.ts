import { PhytoRequest } from './wire';
import { UnitCatalogue } from '../catalog/unit-catalogue';
import { exceeds } from '../domain/units';
import { Violation, violation } from '../domain/errors';
import { IdcpEntry } from '../farms/farm-index';
import { locationsArea } from '../farms/treated-area';
import { RuleContext } from './rule-context';

/** Hectares a measured area stands for: `st` in `mst`, which must be an area unit (ha, m2). */
function hectaresOf(value: string, unit: { code: number }, units: UnitCatalogue): number | undefined {
  const d = units.get(unit.code)?.dimension;
  return d && d.measure === 'area' && d.per === null ? Number(value) * d.factor : undefined;
}

/**
 * The treated area: `st` in `mst` (ha or m2) and `surface` (ha), when given, must each be above 0 and no larger than the
 * ground of the record's locations (each SIGPAC enclosure once; a crop's declared area where the REA gives one), and say the same when both are given. Without them,
 * the whole ground is treated. The hectares are returned for the rules that need them (the spray volume per hectare).
 */
export function treatedAreaRules(
  ctx: {
    request: Pick<PhytoRequest, 'st' | 'mst' | 'surface'> & { idcp: readonly unknown[] };
    codes: RuleContext['codes'];
  },
  entries: IdcpEntry[],
): { hectares: number | undefined; violations: Violation[] } {
  const r = ctx.request;
  const ground = locationsArea(entries);
  const violations: Violation[] = [];
  const known = entries.length === r.idcp.length;
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
          `${shown} is more than the ${round(ground)} ha of the record's locations (${groundWords})`,
        ),
      );
      return undefined;
    }
    return hectares;
  };
  let fromSt: number | undefined;
  // A unit SIEX does not have is UNKNOWN_SIEX_CODE already (code-rules.ts).
  if (r.st !== undefined && r.mst && ctx.codes.units.get(r.mst.code)) {
    const hectares = hectaresOf(r.st, r.mst, ctx.codes.units);
    if (hectares === undefined) {
      violations.push(
        violation('TREATED_AREA_INVALID', 'body.mst.code', `mst must be an area unit (ha, m2), not ${r.mst.symbol}`),
      );
    } else fromSt = check(hectares, 'body.st', `${r.st} ${r.mst.symbol}`);
  }
  const fromSurface = r.surface === undefined ? undefined : check(Number(r.surface), 'body.surface', `${r.surface} ha`);
  if (fromSt !== undefined && fromSurface !== undefined && Math.abs(fromSt - fromSurface) >= 5e-5) {
    violations.push(
      violation(
        'TREATED_AREA_INVALID',
        'body.surface',
        `surface (${r.surface} ha) and st (${r.st} ${r.mst?.symbol}) are two different treated areas`,
      ),
    );
  }
  const hectares = violations.length > 0 ? undefined : (fromSt ?? fromSurface ?? (ground > 0 ? ground : undefined));
  return { hectares, violations };
}

function round(hectares: number): number {
  return Math.round(hectares * 1e4) / 1e4;
}

/**
 * A ceiling on the spray volume, litres of mixture per treated hectare. The labels of the official register state
 * volumes well below it (MICROTHIOL SPECIAL DISPERSS, ES-11179: 500-1500 L/ha on vine, 500-1333 L/ha on olive, in
 * the register snapshot of 2026-08-14); 5,000 L/ha is the figure issue 23 sets, above what any hydraulic or air-blast
 * sprayer puts on a hectare, so a figure beyond it is a typing error (litres for a tank, hectares for m2), not a
 * treatment.
 */
const MAX_SPRAY_LITRES_PER_HA = 5_000;

export function sprayVolumeRules(litresPerHa: number | undefined, soup: string | undefined): Violation[] {
  if (litresPerHa === undefined || !(litresPerHa > MAX_SPRAY_LITRES_PER_HA)) return [];
  return [
    violation(
      'SPRAY_VOLUME_ABOVE_MAX',
      'body.soup',
      `${soup} L of mixture is ${round(litresPerHa)} L/ha, above the ${MAX_SPRAY_LITRES_PER_HA.toLocaleString('en')} L/ha ceiling`,
    ),
  ];
}
