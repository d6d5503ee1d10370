import { DateTime } from 'luxon';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { BackdateWindow } from '../domain/backdate-window';
import { ZONE } from '../domain/dates';
import { Violation, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { resolveLocations } from '../rules/location-rules';
import { timeRules } from '../rules/time-rules';
import { irrigationCodeRules } from './code-rules';
import { Irrigation } from './irrigation';
import { Water, waterOf, waterUnitRules } from './water-quantity';

/** Everything the irrigation rules look at; they do no I/O. */
export interface IrrigationContext {
  irrigation: Irrigation;
  now: DateTime;
  /** How long after its first day it may be registered; null: no window (a correction that keeps the date). */
  window: BackdateWindow | null;
  farm: FarmIndex;
  codes: SiexCodes;
}

/** What judging resolved, for the record's view: its water in m3 (undefined only when it was refused). */
export interface IrrigationResolution {
  water: Water | undefined;
}

/** The first day of the irrigation, at its start, in Madrid: what the time and code rules are judged on. */
export function startOf(i: Irrigation): DateTime {
  return DateTime.fromISO(i.start, { zone: ZONE }).startOf('day');
}

/**
 * Every rule on an irrigation (RD 1051/2022 art. 5 and Anexo IX), every violation at once:
 * - time: the first day in the farm's campaign, not in the future, registered within the decree's month
 *   (recording-window.ts), and the last day not in the future; days are compared (today's `now` at its midnight);
 *   that it does not end before it starts is the wire's (wire.ts);
 * - locations: every idcp one of the farm's;
 * - codes: each in force on the first day, in its catalogue and scope (code-rules.ts);
 * - the water: a volume, or a volume per area (water-quantity.ts).
 */
export function judgeIrrigation(ctx: IrrigationContext): { violations: Violation[]; resolution: IrrigationResolution } {
  const i = ctx.irrigation;
  const today = ctx.now.setZone(ZONE).startOf('day');
  const appliedAt = startOf(i);
  const violations: Violation[] = [...timeRules({ ...ctx, appliedAt, now: today }, 'body.dateStart')];
  if (i.end > (today.toISODate() ?? ''))
    violations.push(violation('DATE_IN_FUTURE', 'body.dateEnd', 'the last day is in the future'));
  violations.push(...resolveLocations(ctx.farm, i.idcp).violations);
  violations.push(...irrigationCodeRules(i, ctx.codes, appliedAt));
  violations.push(...waterUnitRules(i, ctx.codes.units));
  return { violations, resolution: { water: waterOf(i, ctx.codes.units) } };
}
