import { DateTime } from 'luxon';
import { z } from 'zod';
import { ZONE } from '../domain/dates';

/**
 * The applications of one product on one SIGPAC enclosure, as the count and interval rules need them: how many on
 * each Madrid calendar day. The rules count applications per campaign (a calendar year) and measure intervals in
 * calendar days, so nothing finer is needed; the size is bounded by the days kept, never by how many applications a
 * farm records (a product with no count limit may be applied any number of times on one day).
 */
export type DayCounts = Readonly<Record<string, number>>;

export const dayCountsSchema = z.record(
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  z.number().int().positive(),
) satisfies z.ZodType<DayCounts>;

/**
 * Campaigns kept: the newest one a location has and the two before it, so a correction in the previous campaign and
 * an interval across New Year both see everything they need (at most about 1,100 days, well within one table
 * property).
 */
export const KEPT_CAMPAIGNS = 3;

/** The Madrid calendar day of an instant, `YYYY-MM-DD`. */
export function dayOf(at: DateTime): string {
  return at.setZone(ZONE).toISODate()!;
}

const yearOf = (day: string) => Number(day.slice(0, 4));

/** `days` with one application more (`delta` 1) or less (-1) on `day`; campaigns older than the kept ones dropped. */
export function withApplication(days: DayCounts, day: string, delta: 1 | -1): DayCounts {
  const out: Record<string, number> = { ...days };
  const n = (out[day] ?? 0) + delta;
  if (n > 0) out[day] = n;
  else delete out[day];
  const newest = Math.max(...Object.keys(out).map(yearOf));
  for (const d of Object.keys(out)) if (yearOf(d) <= newest - KEPT_CAMPAIGNS) delete out[d];
  return out;
}

/** Applications in a campaign (calendar year). */
export function countInCampaign(days: DayCounts, year: number): number {
  let n = 0;
  for (const [d, count] of Object.entries(days)) if (yearOf(d) === year) n += count;
  return n;
}

const dayNumber = (day: string) => DateTime.fromISO(day, { zone: 'utc' }).toMillis() / 86_400_000;

/**
 * The day of an application fewer than `minDays` calendar days from `day`, either side (a back-dated record must keep
 * the interval with later ones too), the nearest first; undefined when the interval is kept. An interval exactly
 * met passes: applications on the 1st and the 8th keep a 7-day interval.
 */
export function clashWithin(days: DayCounts, day: string, minDays: number): string | undefined {
  if (minDays <= 0) return undefined;
  const at = dayNumber(day);
  let nearest: { day: string; gap: number } | undefined;
  for (const d of Object.keys(days)) {
    const gap = Math.abs(dayNumber(d) - at);
    if (gap < minDays && (!nearest || gap < nearest.gap)) nearest = { day: d, gap };
  }
  return nearest?.day;
}
