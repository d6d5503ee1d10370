import { DateTime } from 'luxon';
import { CodeCheck } from '../catalog/siex-codes/code-check';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { BackdateWindow } from '../domain/backdate-window';
import { ZONE } from '../domain/dates';
import { Violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { resolveLocations } from '../rules/location-rules';
import { timeRules } from '../rules/time-rules';
import { FertilizationPlan } from './plan';
import { planQuantityRules } from './quantity-rules';

/** Everything the plan rules look at; they do no I/O. */
export interface PlanContext {
  plan: FertilizationPlan;
  now: DateTime;
  window: BackdateWindow | null;
  farm: FarmIndex;
  codes: SiexCodes;
}

/** The day the plan was drawn up, at its start, in Madrid. */
export function dayOf(p: FertilizationPlan): DateTime {
  return DateTime.fromISO(p.date, { zone: ZONE }).startOf('day');
}

/**
 * Every rule on a fertilization plan (RD 1051/2022 arts. 4.1, 5.a and 6), every violation at once: the day in the
 * farm's campaign (the plan is the campaign's, art. 5.a), not in the future, registered within the decree's month
 * (recording-window.ts); every idcp one of the farm's; the previous crop a PRODUCTOS code in force on the day (the
 * CUE's `CultivoPrecedente`, RD 1054/2022 Anexo II); the needs and yield target within their bounds
 * (quantity-rules.ts).
 */
export function judgePlan(ctx: PlanContext): Violation[] {
  const p = ctx.plan;
  const day = dayOf(p);
  const codes = new CodeCheck(ctx.codes, day);
  codes.code('PRODUCTOS', p.previousCrop, 'body.previousCrop.id');
  return [
    ...timeRules({ ...ctx, appliedAt: day, now: ctx.now.setZone(ZONE).startOf('day') }, 'body.date'),
    ...resolveLocations(ctx.farm, p.idcp).violations,
    ...codes.violations,
    ...planQuantityRules(p),
  ];
}
