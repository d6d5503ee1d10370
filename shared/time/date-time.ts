import { DateTime } from 'luxon';
import { Clock, systemClock } from './clock';

/**
 * The clock's time as a luxon DateTime, in luxon's default zone as `DateTime.now()` gives it: what code that dates
 * things takes when no clock is passed in (shared/app/services.ts passes the process's).
 */
export function dateTimeNow(clock: Pick<Clock, 'now'> = systemClock): DateTime {
  return DateTime.fromMillis(clock.now());
}
