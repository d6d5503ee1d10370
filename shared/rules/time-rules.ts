import type { DateTime } from 'luxon';
import { BackdateWindow } from '../domain/backdate-window';
import { Violation, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';

/** A clock a little ahead at the ERP must not turn a record of something done just now into a "future" one. */
export const CLOCK_SKEW_SECONDS = 120;

/** What the time rules look at: when it was done, now, the farm campaign, and the kind's recording window. */
export interface TimeContext {
  appliedAt: DateTime;
  now: DateTime;
  farm: FarmIndex;
  /** Null: no window (a correction that keeps its date). */
  window: BackdateWindow | null;
}

/**
 * Not in the future, registered within the kind's window on Madrid's calendar, and in the farm's campaign: an
 * agrifarmId names one campaign year, whose counts and CUE document the record belongs to. The window ends on the
 * application's date plus its span (across a summer-time change "7 days later" is the same wall-clock time a week
 * on, not 168 hours; a month runs date to date, to the month's last day when it has no such date, as the Código Civil,
 * art. 5.1, counts months), and registering on that last instant is still in time.
 */
export function timeRules(ctx: TimeContext, path = 'body.dateApplication'): Violation[] {
  const campaign = ctx.farm.meta.year;
  const outside =
    ctx.appliedAt.year === campaign
      ? []
      : [
          violation(
            'OUTSIDE_CAMPAIGN',
            path,
            `the application took place in ${ctx.appliedAt.year}, but this agrifarmId is the ${campaign} campaign; look the farm up with year=${ctx.appliedAt.year}`,
          ),
        ];
  if (ctx.appliedAt > ctx.now.plus({ seconds: CLOCK_SKEW_SECONDS })) {
    return [violation('DATE_IN_FUTURE', path, 'the application date is in the future'), ...outside];
  }
  if (ctx.window && ctx.appliedAt.plus(ctx.window.span) < ctx.now) {
    return [
      violation(
        'DATE_TOO_OLD',
        path,
        `applications may be registered at most ${ctx.window.label} after they took place`,
      ),
      ...outside,
    ];
  }
  return outside;
}
