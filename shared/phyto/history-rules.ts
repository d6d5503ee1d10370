import { DateTime } from 'luxon';
import { ProductUse } from '../catalog/product';
import { formatDate } from '../domain/dates';
import { Violation } from '../domain/errors';
import { phytoViolation } from './errors';
import { IdcpEntry } from '../farms/farm-index';
import { sigpacCode } from '../farms/sigpac';
import { clashWithin, countInCampaign, dayOf } from './application-history';
import { PhytoApplication, RuleContext } from './rule-context';

/**
 * Maximum count of applications of a product in the campaign and minimum interval between two, on each enclosure,
 * counting what is already stored there (whatever campaign or crop record it came from, as a record's main product or
 * in a mix: the label limits the land's exposure to the product). When several uses authorize the application, the
 * most permissive limits apply (the application is lawful under that use). Intervals are Madrid calendar days: the interval exactly met passes, a
 * back-dated record must keep it with later applications too, and it reaches across New Year.
 */
export function historyRules(
  ctx: RuleContext,
  app: PhytoApplication,
  entries: IdcpEntry[],
  uses: ProductUse[],
): Violation[] {
  const out: Violation[] = [];
  const day = dayOf(ctx.appliedAt);
  const seen = new Set<string>();
  for (const entry of entries) {
    const sigpac = sigpacCode(entry);
    // Two crop locations of one enclosure in one record are one application on that land.
    if (seen.has(sigpac)) continue;
    seen.add(sigpac);
    const crop = ctx.farm.cropOf(entry).typecropId;
    const applicable = uses.filter((u) => u.cropTypeIds.includes(crop));
    if (applicable.length === 0) continue;
    const days = app.history.get(sigpac) ?? {};
    const minDays = Math.min(...applicable.map((u) => u.minIntervalDays ?? 0));
    const maxCount = Math.max(...applicable.map((u) => u.maxApplications ?? Infinity));
    const path = app.shared(`idcp[${ctx.treatment.idcp.indexOf(entry.idcp)}]`);
    const done = countInCampaign(days, ctx.appliedAt.year);
    if (done + 1 > maxCount) {
      out.push(
        phytoViolation(
          'MAX_APPLICATIONS',
          path,
          `enclosure ${sigpac} (idcp ${entry.idcp}) already has ${done} application(s) of ${app.code} in the ${ctx.appliedAt.year} campaign; at most ${maxCount} are authorized`,
        ),
      );
    }
    const clash = clashWithin(days, day, minDays);
    if (clash) {
      out.push(
        phytoViolation(
          'MIN_INTERVAL',
          path,
          `enclosure ${sigpac} (idcp ${entry.idcp}) had ${app.code} on ${formatDate(DateTime.fromISO(clash))}; at least ${minDays} calendar days must separate applications`,
        ),
      );
    }
  }
  return out;
}
