import { DateTime } from 'luxon';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { BackdateWindow } from '../domain/backdate-window';
import { ZONE } from '../domain/dates';
import { Violation, violation } from '../domain/errors';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { resolveLocations } from '../rules/location-rules';
import { timeRules } from '../rules/time-rules';
import { harvestCodeRules } from './code-rules';
import { Harvest } from './harvest';
import { preHarvestRules } from './pre-harvest-rules';
import { produceRules } from './produce-rules';

/** Everything the harvest rules look at; they do no I/O. */
export interface HarvestContext {
  harvest: Harvest;
  now: DateTime;
  /** How long after its first day it may be registered; null: no window (a correction that keeps the date). */
  window: BackdateWindow | null;
  farm: FarmIndex;
  codes: SiexCodes;
  /** The harvest holds the treatments state (shared/rules/harvest-holds.ts), as the core read them. */
  holds: readonly unknown[];
}

/** What judging resolved, for the record's view. */
export interface HarvestResolution {
  entries: IdcpEntry[];
}

/** The first day of the harvest, at its start, in Madrid: what the time and code rules are judged on. */
export function startOf(h: Harvest): DateTime {
  return DateTime.fromISO(h.start, { zone: ZONE }).startOf('day');
}

/**
 * Every rule on a harvest, every violation at once:
 * - time: the first day in the farm's campaign, not in the future, registered within the operators' window (a harvest
 *   is recorded by days, so days are compared: today's `now` at its midnight), and the last day not in the future;
 * - locations: every idcp one of the farm's;
 * - codes: each in force on the first day, in its catalogue (code-rules.ts);
 * - produce: the quantity an amount, the product one of every location's crop (produce-rules.ts);
 * - the pre-harvest interval of every treatment of each location's enclosure and crop (pre-harvest-rules.ts).
 */
export function judgeHarvest(ctx: HarvestContext): { violations: Violation[]; resolution: HarvestResolution } {
  const h = ctx.harvest;
  const appliedAt = startOf(h);
  const today = ctx.now.setZone(ZONE).startOf('day');
  const violations: Violation[] = [...timeRules({ ...ctx, appliedAt, now: today }, 'body.dateStart')];
  if (h.end > (today.toISODate() ?? ''))
    violations.push(violation('DATE_IN_FUTURE', 'body.dateEnd', 'the last day is in the future'));
  const { entries, violations: locations } = resolveLocations(ctx.farm, h.idcp);
  violations.push(...locations);
  violations.push(...harvestCodeRules(h, ctx.codes, appliedAt));
  violations.push(...produceRules(h, ctx.codes, ctx.farm, entries));
  violations.push(...preHarvestRules(h, ctx.farm, ctx.holds));
  return { violations, resolution: { entries } };
}
