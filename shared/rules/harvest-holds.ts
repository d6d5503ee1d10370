import { DateTime } from 'luxon';
import { z } from 'zod';
import { ZONE } from '../domain/dates';

/**
 * Harvest holds: the facts a record kind publishes when what it records keeps a crop from being harvested for a time,
 * and that a harvest, and the safe-harvest view, read (shared/records/record-facts.ts carries them between kinds
 * without either naming the other). Today the treatments publish them: a plant protection product's pre-harvest
 * interval (plazo de seguridad) is a condition of its authorisation (Reglamento (CE) 1107/2009, art. 31, and the
 * product's resolution in the official register, which states it per use in days, or "NP" where none applies), and the
 * farm's treatment record keeps each application's product, crop, enclosure and day (RD 1311/2012, Anexo III) so that the interval can be checked against the harvest.
 *
 * A hold runs in calendar days from the Madrid day of the application: produce may be harvested from the application
 * day plus `days` on, not before (an interval of 21 days after a treatment on 20-12-2025 ends on 10-01-2026).
 */
export const HARVEST_HOLDS = 'harvest-holds';

export const harvestHoldSchema = z.strictObject({
  /** The SIGPAC enclosure (shared/farms/sigpac.ts `sigpacCode`): a hold follows the ground across campaigns. */
  enclosure: z.string().min(1),
  /** The SIEX crop (PRODUCTOS code) the interval is for. */
  crop: z.string().min(1),
  /** What holds it: the record's URN and the product, by its code and name. */
  record: z.string().min(1),
  product: z.strictObject({ code: z.string(), name: z.string() }),
  /** The Madrid day of the application, ISO. */
  applied: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  days: z.number().int().nonnegative(),
});
export type HarvestHold = z.infer<typeof harvestHoldSchema>;

/** The first day the produce may be harvested, ISO: the application day plus the interval in calendar days. */
export function safeDayOf(hold: Pick<HarvestHold, 'applied' | 'days'>): string {
  return DateTime.fromISO(hold.applied, { zone: 'utc' }).plus({ days: hold.days }).toISODate()!;
}

/**
 * The hold that decides a harvest of `crop` on `enclosure` on the ISO day `day`: of the applications on or before that
 * day (a later one cannot have touched produce harvested then), the one whose interval ends last; undefined when none
 * holds the ground.
 */
export function decidingHold(
  holds: readonly HarvestHold[],
  enclosure: string,
  crop: string,
  day: string,
): { hold: HarvestHold; safeDay: string } | undefined {
  let latest: { hold: HarvestHold; safeDay: string } | undefined;
  for (const hold of holds) {
    if (hold.enclosure !== enclosure || hold.crop !== crop || hold.applied > day) continue;
    const safeDay = safeDayOf(hold);
    if (!latest || safeDay > latest.safeDay) latest = { hold, safeDay };
  }
  return latest;
}

/** How far back holds are read: this campaign and the one before it (an interval longer than a year is unknown). */
export function holdsSince(day: string): DateTime {
  return DateTime.fromISO(day, { zone: ZONE }).minus({ years: 1 }).startOf('year');
}
