import { DateTime } from 'luxon';
import { formatDate, ZONE } from '../domain/dates';
import { Violation } from '../domain/errors';
import { harvestViolation } from './errors';
import { FarmIndex } from '../farms/farm-index';
import { sigpacCode } from '../farms/sigpac';
import { decidingHold, HarvestHold, harvestHoldSchema } from '../rules/harvest-holds';
import { Harvest } from './harvest';

const dmy = (iso: string) => formatDate(DateTime.fromISO(iso, { zone: ZONE }));

/**
 * The pre-harvest interval (plazo de seguridad). A plant protection product is authorised on the condition that its
 * produce is not harvested before the interval its authorisation sets for the use has run (Reglamento (CE) 1107/2009,
 * art. 31; the interval each use's resolution states in the official register), and the holding's record
 * of treatments exists so that this can be checked (RD 1311/2012, Anexo III). So on every location, every
 * treatment of its SIGPAC enclosure and crop, in this campaign or the one before, that states an interval in days
 * (shared/rules/harvest-holds.ts: "NP" and no interval hold nothing) holds the harvest until the application day
 * plus those days, in Madrid's calendar days: a harvest that starts before is refused at its location. Treatments
 * after the harvest's last day did not touch its produce and are not counted.
 */
export function preHarvestRules(h: Harvest, farm: FarmIndex, facts: readonly unknown[]): Violation[] {
  const holds: HarvestHold[] = facts.map((f) => harvestHoldSchema.parse(f));
  const violations: Violation[] = [];
  h.idcp.forEach((idcp, i) => {
    const entry = farm.byIdcp.get(idcp);
    if (!entry) return;
    const crop = farm.cropOf(entry);
    const deciding = decidingHold(holds, sigpacCode(entry), crop.typecropId, h.end);
    if (!deciding || h.start >= deciding.safeDay) return;
    const { hold, safeDay } = deciding;
    violations.push(
      harvestViolation(
        'PRE_HARVEST_INTERVAL_NOT_MET',
        `body.idcp[${i}]`,
        `${hold.product.code} (${hold.product.name}) was applied on ${dmy(hold.applied)} to ${crop.typecropName} on SIGPAC ` +
          `enclosure ${sigpacCode(entry)}, with a pre-harvest interval of ${hold.days} days: it may be harvested from ` +
          `${dmy(safeDay)} (${hold.record})`,
      ),
    );
  });
  return violations;
}
