import { DateTime } from 'luxon';
import { ZONE } from '../domain/dates';

/**
 * Whether a client's credentials have expired: after its `expires` day (ISO, Madrid), never for a client without one.
 * One rule for both things an expiry ends (docs/backoffice-dataset.md, `expires`): its requests, answered 401
 * EXPIRED_CREDENTIALS (shared/http/auth.ts), and the job events of its farms, which its webhook no longer hears
 * (client-store.ts), as a client whose contract ended must not go on receiving a shared farm's outcomes.
 *
 * The clock is read only for a client with an expiry: luxon's first DateTime starts ICU, which costs the first request
 * after a cold start about 13 ms that a client without one never needs.
 */
export function hasExpired(expires: string, now: () => DateTime): boolean {
  return expires !== '' && now().setZone(ZONE).toISODate()! > expires;
}
