import { DateTime } from 'luxon';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { BackdateWindow } from '../domain/backdate-window';
import { ZONE } from '../domain/dates';
import { Violation, violation } from '../domain/errors';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { treatedAreaRules } from '../rules/area-rules';
import { resolveLocations } from '../rules/location-rules';
import { timeRules } from '../rules/time-rules';
import { fertilizationCodeRules } from './code-rules';
import { detailByName } from './fertilizer-detail';
import { Fertilization } from './fertilization';
import { manureLimitRules, ManureNitrogenRow } from './manure-nitrogen';
import { materialRules } from './material-rules';
import { nitrogenPerHa } from './nitrogen';
import { quantityBounds } from './quantity-bounds';
import { slurryRules } from './slurry-rules';

/** Everything the fertilization rules look at; they do no I/O. */
export interface FertilizationContext {
  fertilization: Fertilization;
  now: DateTime;
  /** How long after its first day it may be registered; null: no window (a correction that keeps the date). */
  window: BackdateWindow | null;
  farm: FarmIndex;
  codes: SiexCodes;
  /** The manure nitrogen rows of the record's enclosures (shared/fertilization/manure-nitrogen.ts). */
  history: ReadonlyMap<string, ManureNitrogenRow>;
  /** The version an amendment replaces: it must not count against itself. */
  own: Fertilization | null;
}

/** What judging resolved, for the record's view. */
export interface FertilizationResolution {
  entries: IdcpEntry[];
  /** kg N/ha the record applies; undefined only when it was refused. */
  nitrogenKgPerHa: number | undefined;
  /** Hectares fertilized. */
  hectares: number | undefined;
  /** The commercial product the record names (DETALLE_MATERIAL_FERT): the request's, else its product name's. */
  detail: { code: number; name: string } | null;
}

/** The first day of the application, at its start, in Madrid: what the time and code rules are judged on. */
export function startOf(f: Fertilization): DateTime {
  return DateTime.fromISO(f.start, { zone: ZONE }).startOf('day');
}

/**
 * Every rule on a fertilization, every violation at once:
 * - time: the first day in the farm's campaign, not in the future, registered within the decree's month
 *   (recording-window.ts); a fertilization is recorded by days, so days are compared (today's `now` at its midnight);
 * - locations: every idcp one of the farm's; the fertilized area (`surface`) as a treated area;
 * - codes: each in force on the first day, in its catalogue and scope (code-rules.ts);
 * - the material's data as MAT_FERTI asks (material-rules.ts);
 * - nitrogen: the kg N/ha it applies, through the density for a volume (nitrogen.ts), and, for livestock manure, the
 *   170 kg N/ha limit on nitrate-vulnerable enclosures (manure-nitrogen.ts);
 * - slurry: spread only as RD 1051/2022 allows (slurry-rules.ts);
 * - every quantity within what its CUE field holds (quantity-bounds.ts).
 */
export function judgeFertilization(ctx: FertilizationContext): {
  violations: Violation[];
  resolution: FertilizationResolution;
} {
  const f = ctx.fertilization;
  const appliedAt = startOf(f);
  const today = ctx.now.setZone(ZONE).startOf('day');
  const violations: Violation[] = [...timeRules({ ...ctx, appliedAt, now: today }, 'body.dateStart')];
  if (f.end > (today.toISODate() ?? ''))
    violations.push(violation('DATE_IN_FUTURE', 'body.dateEnd', 'the last day is in the future'));
  const { entries, violations: locations } = resolveLocations(ctx.farm, f.idcp);
  violations.push(...locations);
  const area = treatedAreaRules(
    { locations: f.idcp.length, measured: null, surface: f.surface },
    ctx.codes.units,
    entries,
  );
  violations.push(...area.violations);
  violations.push(...fertilizationCodeRules(f, ctx.codes, appliedAt));
  violations.push(...materialRules(f, (n) => ctx.codes.name('MACRONUTRIENTES', n) ?? `nutrient ${n}`));
  const bounds = quantityBounds(f);
  violations.push(...bounds);
  const nitrogen = nitrogenPerHa(f, ctx.codes.units);
  violations.push(...nitrogen.violations);
  violations.push(...slurryRules(f));
  // Nitrogen from a dose past its bounds is not counted: the record is refused, and its figure could pass what a total holds.
  if (nitrogen.kgPerHa !== undefined && locations.length === 0 && bounds.length === 0) {
    const ownKg = ctx.own ? nitrogenPerHa(ctx.own, ctx.codes.units).kgPerHa : undefined;
    const own = ctx.own && ownKg !== undefined ? { fertilization: ctx.own, kgPerHa: ownKg } : null;
    violations.push(...manureLimitRules(ctx.farm, ctx.history, { fertilization: f, kgPerHa: nitrogen.kgPerHa }, own));
  }
  return {
    violations,
    resolution: { entries, nitrogenKgPerHa: nitrogen.kgPerHa, hectares: area.hectares, detail: detailOf(f, ctx.codes) },
  };
}

/**
 * The commercial product a fertilization names: the request's `detail`, else the one product of its material its
 * label's product name gives (fertilizer-detail.ts), resolved now because the CUE mapping has no catalogue at hand.
 */
function detailOf(f: Fertilization, codes: SiexCodes): FertilizationResolution['detail'] {
  const m = f.material;
  const code = m.detail ?? (m.productName === null ? null : detailByName(codes, m.code, m.productName));
  return code === null ? null : { code, name: codes.name('DETALLE_MATERIAL_FERT', code) ?? '' };
}
