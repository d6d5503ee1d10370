import { DateTime } from 'luxon';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { BackdateWindow } from '../domain/backdate-window';
import { ZONE } from '../domain/dates';
import { Violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { resolveLocations } from '../rules/location-rules';
import { timeRules } from '../rules/time-rules';
import { Analysis } from './analysis';
import { analysisCodeRules } from './code-rules';
import { contentRules } from './content-rules';

/** Everything the analysis rules look at; they do no I/O. */
export interface AnalysisContext {
  analysis: Analysis;
  now: DateTime;
  window: BackdateWindow | null;
  farm: FarmIndex;
  codes: SiexCodes;
}

/** The day of the sample, at its start, in Madrid. */
export function dayOf(a: Analysis): DateTime {
  return DateTime.fromISO(a.date, { zone: ZONE }).startOf('day');
}

/**
 * Every rule on an analysis (RD 1051/2022 arts. 4.1, 5.b and 6; RD 1311/2012 art. 16.3), every violation at once: the
 * day in the farm's campaign, not in the future, registered within the decree's month (recording-window.ts); every
 * idcp one of the farm's; each code in force on the day (code-rules.ts); what it holds for what it analysed and the
 * laboratory's NIF (content-rules.ts). The soil figures' ranges are the wire's (wire.ts).
 */
export function judgeAnalysis(ctx: AnalysisContext): Violation[] {
  const a = ctx.analysis;
  const day = dayOf(a);
  return [
    ...timeRules({ ...ctx, appliedAt: day, now: ctx.now.setZone(ZONE).startOf('day') }, 'body.date'),
    ...resolveLocations(ctx.farm, a.idcp).violations,
    ...analysisCodeRules(a, ctx.codes, day),
    ...contentRules(a),
  ];
}
