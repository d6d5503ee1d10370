import { DateTime } from 'luxon';
import { ProductUse } from '../catalog/product';
import { formatDateTime, ZONE } from '../domain/dates';
import { Violation, violation } from '../domain/errors';
import { IdcpEntry } from '../farms/farm-index';
import { RuleContext } from './rule-context';

/**
 * Minimum interval and maximum count of applications of the product on each crop location in the campaign, counting
 * what is already stored. When several uses authorize the application, the most permissive limits apply (the
 * application is lawful under that use). Intervals are calendar days in Madrid: the interval exactly met passes, and
 * a backdated record must keep the interval with later applications too.
 */
export function historyRules(ctx: RuleContext, entries: IdcpEntry[], uses: ProductUse[]): Violation[] {
  const out: Violation[] = [];
  for (const entry of entries) {
    const crop = ctx.farm.cropOf(entry).typecropId;
    const applicable = uses.filter((u) => u.cropTypeIds.includes(crop));
    if (applicable.length === 0) continue;
    const prior = ctx.history.get(entry.idcp) ?? [];
    const minDays = Math.min(...applicable.map((u) => u.minIntervalDays ?? 0));
    const maxCount = Math.max(...applicable.map((u) => u.maxApplications ?? Infinity));
    const i = ctx.request.idcp.indexOf(String(entry.idcp));
    if (prior.length + 1 > maxCount) {
      out.push(
        violation(
          'MAX_APPLICATIONS',
          `body.idcp[${i}]`,
          `idcp ${entry.idcp} already has ${prior.length} application(s) of ${ctx.request.subtype.code} this campaign; at most ${maxCount} are authorized`,
        ),
      );
    }
    if (minDays > 0) {
      const clash = prior.find((p) => {
        const at = DateTime.fromISO(p.at, { zone: ZONE });
        return at.plus({ days: minDays }) > ctx.appliedAt && ctx.appliedAt.plus({ days: minDays }) > at;
      });
      if (clash) {
        out.push(
          violation(
            'MIN_INTERVAL',
            `body.idcp[${i}]`,
            `idcp ${entry.idcp} had ${ctx.request.subtype.code} on ${formatDateTime(DateTime.fromISO(clash.at))}; at least ${minDays} days must separate applications`,
          ),
        );
      }
    }
  }
  return out;
}
