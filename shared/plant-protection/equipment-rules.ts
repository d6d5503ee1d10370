import { DateTime } from 'luxon';
import { parseDate } from '../domain/dates';
import { isHandHeld, Machine } from '../domain/equipment';
import { Violation, violation } from '../domain/errors';
import { PartContext } from './product-part';

/**
 * RD 1702/2011 art. 6: equipment in use is inspected every 3 years (every 5 until 2020), and new equipment within 5
 * years of its acquisition. Hand-held and backpack equipment (shared/domain/equipment.ts) is outside its scope.
 */
const INSPECTION_VALID_YEARS = 3;
const FIRST_INSPECTION_YEARS = 5;

/** How an inspector names a machine: its ROMA number, else the ERP's reference, else its type and name. */
function machineLabel(m: Machine): string {
  const type = [m.une, m.name].filter(Boolean).join(' ');
  return m.roma ? `${type} (ROMA ${m.roma})` : m.ref ? `${type} (${m.ref})` : type;
}

/**
 * Equipment as it was on the application day: its last inspection not after the application nor more than 3 years
 * before it; equipment never inspected passes only when first registered less than 5 years before. A powered machine
 * must state one of the two days: RD 1311/2012 Anexo III asks the record, for the holder's own equipment, its
 * acquisition and last inspection, and RD 1702/2011 art. 6 makes the inspection a condition of its use, so a record
 * that states neither says nothing an inspector could hold it to. Records stored before this rule keep their outcome:
 * an amendment is not refused for a machine its earlier version already named without days (`ownMachines`). A
 * malformed day is a 400 of the request's schema already.
 */
export function equipmentRules(ctx: PartContext): Violation[] {
  const day = ctx.appliedAt.startOf('day');
  const on = day.toFormat('dd-MM-yyyy');
  const out: Violation[] = [];
  (ctx.treatment.machines ?? []).forEach((m, i) => {
    if (isHandHeld(m.une)) return;
    const at = `body.machine[${i}]`;
    const name = machineLabel(m);
    const inspected = m.inspection ? parseDate(m.inspection) : null;
    const registered = m.registered ? parseDate(m.registered) : null;
    if (!inspected && !registered) {
      if (!ctx.ownMachines?.some((o) => sameMachine(o, m) && !o.inspection && !o.registered))
        out.push(
          violation(
            'EQUIPMENT_INSPECTION_UNKNOWN',
            at,
            `${name}: a powered machine states its last inspection (inspection) or, never inspected yet, its first ` +
              `registration (registered), as RD 1311/2012 Anexo III asks of the holder's equipment (RD 1702/2011 art. 6)`,
          ),
        );
    } else if (inspected) {
      if (inspected > day)
        out.push(expired(`${at}.inspection`, `${name}: inspected on ${m.inspection}, after the application on ${on}`));
      else if (inspected < years(day, INSPECTION_VALID_YEARS))
        out.push(
          expired(
            `${at}.inspection`,
            `${name}: last inspected on ${m.inspection}, more than ${INSPECTION_VALID_YEARS} years before the application on ${on} (RD 1702/2011 art. 6)`,
          ),
        );
    } else if (registered) {
      if (registered > day)
        out.push(
          expired(`${at}.registered`, `${name}: first registered on ${m.registered}, after the application on ${on}`),
        );
      else if (registered <= years(day, FIRST_INSPECTION_YEARS))
        out.push(
          expired(
            `${at}.inspection`,
            `${name}: never inspected, and first registered on ${m.registered}, ${FIRST_INSPECTION_YEARS} years or more before the application on ${on} (RD 1702/2011 art. 6)`,
          ),
        );
    }
  });
  return out;
}

/** The same machine in two versions of a record: the same type, ROMA number and reference. */
const sameMachine = (a: Machine, b: Machine) => a.une === b.une && a.roma === b.roma && a.ref === b.ref;

const years = (day: DateTime, n: number) => day.minus({ years: n });
const expired = (path: string, message: string) => violation('EQUIPMENT_INSPECTION_EXPIRED', path, message);
