import { DateTime } from 'luxon';
import { formatDate, isoDay, ZONE } from '../domain/dates';
import { Product } from './product';

/** Whether a product may be used on a day, and when not, why: for the rules' messages and the catalogue endpoints. */
export type ProductStanding =
  | { inForce: true; lastDay: string }
  | { inForce: false; why: 'not-registered-yet'; registered: string }
  | { inForce: false; why: 'ended'; lastDay: string; byLastUse: boolean }
  | { inForce: false; why: 'no-known-valid-day'; registerState: string };

type Dates = Pick<Product, 'registered' | 'expires' | 'lastUse' | 'registerState' | 'noKnownValidDay'>;

/** The last day the product may be used: its last-use (grace) day when it has one, else its expiry. */
function lastDayOf(product: Dates): string {
  return product.lastUse || product.expires;
}

/**
 * The product's standing on a Madrid calendar day (`DD-MM-YYYY`, or a DateTime taken in Madrid): in force from its
 * registration day through its last day; a product the register withdrew without any day it was valid on is never in
 * force.
 */
export function productStandingOn(product: Dates, day: string | DateTime): ProductStanding {
  const d = typeof day === 'string' ? isoDay(day) : isoDay(formatDate(day.setZone(ZONE)));
  if (product.noKnownValidDay) {
    return { inForce: false, why: 'no-known-valid-day', registerState: product.registerState ?? 'withdrawn' };
  }
  if (d < isoDay(product.registered))
    return { inForce: false, why: 'not-registered-yet', registered: product.registered };
  const lastDay = lastDayOf(product);
  if (d > isoDay(lastDay)) return { inForce: false, why: 'ended', lastDay, byLastUse: Boolean(product.lastUse) };
  return { inForce: true, lastDay };
}

/** The standing in words, after the product code: "is not in force: its last-use date was 31-01-2028". */
export function describeStanding(s: ProductStanding): string {
  if (s.inForce) return `is in force until ${s.lastDay}`;
  switch (s.why) {
    case 'not-registered-yet':
      return `was registered on ${s.registered}`;
    case 'ended':
      return s.byLastUse
        ? `is not in force: its last-use date was ${s.lastDay}`
        : `is not in force: it expired on ${s.lastDay}`;
    case 'no-known-valid-day':
      return `is listed by the register as ${s.registerState} with no day it was still valid on: it cannot be used on any day`;
  }
}
