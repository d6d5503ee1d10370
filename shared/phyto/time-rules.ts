import { Violation, violation } from '../domain/errors';
import { RuleContext } from './rule-context';

/** A clock a little ahead at the ERP must not turn a treatment done just now into a "future" one. */
export const CLOCK_SKEW_SECONDS = 120;

/**
 * Not in the future, at most `maxBackdateDays` calendar days back in Madrid time (so across a summer-time change
 * "7 days ago" is the same wall-clock time a week earlier, not 168 hours), and in the farm's campaign: an agrifarmId
 * names one campaign year, whose counts and CUE document the application belongs to.
 */
export function timeRules(
  ctx: Pick<RuleContext, 'appliedAt' | 'now' | 'maxBackdateDays' | 'farm'>,
  path = 'body.dateApplication',
): Violation[] {
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
  const earliest =
    ctx.maxBackdateDays === null ? null : ctx.now.setZone(ctx.appliedAt.zone).minus({ days: ctx.maxBackdateDays });
  if (earliest && ctx.appliedAt < earliest) {
    return [
      violation(
        'DATE_TOO_OLD',
        path,
        `applications may be registered at most ${ctx.maxBackdateDays} days after they took place`,
      ),
      ...outside,
    ];
  }
  return outside;
}
