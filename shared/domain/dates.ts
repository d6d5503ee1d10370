import { DateTime } from 'luxon';

/** Every time the API speaks is Spanish peninsular local time (CET/CEST). */
export const ZONE = 'Europe/Madrid';
const DATE_FORMAT = 'dd-MM-yyyy';
export const DATE_TIME_FORMAT = 'dd-MM-yyyy HH:mm:ss';

const DATE_RE = /^\d{2}-\d{2}-\d{4}$/;
const DATE_TIME_RE = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;

/** A calendar day `DD-MM-YYYY`, or null when malformed or not a real day (31-02-2026). */
export function parseDate(text: string): DateTime | null {
  if (!DATE_RE.test(text)) return null;
  const d = DateTime.fromFormat(text, DATE_FORMAT, { zone: ZONE });
  return d.isValid ? d : null;
}

/**
 * A local time `DD-MM-YYYY HH:mm:ss` in Madrid, or null when malformed or when the wall-clock time does not exist
 * (the hour skipped when summer time starts). A repeated hour (summer time ends) resolves to its first occurrence
 * (still summer time, +02:00); luxon alone would pick the second, so the choice is made here. Callers store the UTC
 * instant beside the text so the choice is explicit and kept.
 */
export function parseDateTime(text: string): DateTime | null {
  if (!DATE_TIME_RE.test(text)) return null;
  const d = DateTime.fromFormat(text, DATE_TIME_FORMAT, { zone: ZONE });
  if (!d.isValid) return null;
  // luxon shifts a non-existent local time forward instead of failing; a shifted result is not what was written.
  if (d.toFormat(DATE_TIME_FORMAT) !== text) return null;
  return d.getPossibleOffsets().reduce((first, other) => (other.toMillis() < first.toMillis() ? other : first));
}

export function formatDate(d: DateTime): string {
  return d.setZone(ZONE).toFormat(DATE_FORMAT);
}

export function formatDateTime(d: DateTime): string {
  return d.setZone(ZONE).toFormat(DATE_TIME_FORMAT);
}

/** A `DD-MM-YYYY` date as the ISO day `YYYY-MM-DD`, which sorts and compares as text. */
export function isoDay(text: string): string {
  const [dd, mm, yyyy] = text.split('-');
  return `${yyyy}-${mm}-${dd}`;
}
