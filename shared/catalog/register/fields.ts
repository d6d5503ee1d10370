import { NOT_APPLICABLE_DAYS, SafetyDays } from '../product';

/**
 * Readers for the register's loosely typed fields. Each returns `undefined` for "not stated" and `null` for "stated
 * but not understood", so the mapper can tell an empty cell from one to report.
 */

/** `aaaa/mm/dd` (the export's form), also `aaaa-mm-dd[Thh:mm:ss]` and `dd/mm/aaaa`, as the API's `DD-MM-YYYY`. */
export function registerDay(value: string): string | undefined | null {
  const t = value.trim();
  if (!t) return undefined;
  let y: string, m: string, d: string;
  const ymd = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:[T ][\d:.]+Z?)?$/.exec(t);
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (ymd) [y, m, d] = [ymd[1]!, ymd[2]!, ymd[3]!];
  else if (dmy) [d, m, y] = [dmy[1]!, dmy[2]!, dmy[3]!];
  else return null;
  const probe = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (
    probe.getUTCFullYear() !== Number(y) ||
    probe.getUTCMonth() !== Number(m) - 1 ||
    probe.getUTCDate() !== Number(d)
  ) {
    return null;
  }
  return `${d.padStart(2, '0')}-${m.padStart(2, '0')}-${y}`;
}

/** `DD-MM-YYYY` as `YYYY-MM-DD`, which compares as text. */
export function sortable(day: string): string {
  return `${day.slice(6, 10)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
}

export function earlier(a: string, b: string): string {
  return sortable(a) <= sortable(b) ? a : b;
}

/** A number given as a JSON number or as text with a decimal comma; `undefined` when absent, `null` when not a number. */
export function registerNumber(value: unknown): number | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const t = textOf(value).trim().replace(',', '.');
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

const NOT_APPLICABLE = /^(no procede|n\.?\s?p\.?|no aplica|-)$/i;

/**
 * Plazo de seguridad (pre-harvest interval, days). "NO PROCEDE" / "NP" means no interval applies: `NOT_APPLICABLE_DAYS`
 * ('NP'), which is not 0 days (0 says an interval was set, of zero days). Text with several figures ("90 (ACLAREO DE FRUTOS)7 (EVITAR CAÍDA DE FRUTOS)",
 * "3 (INVERNADERO) 10 (AIRE LIBRE)") gives the longest, so a check against it is never laxer than the label.
 */
export function safetyDays(value: unknown): SafetyDays | undefined | null {
  const t = textOf(value).trim();
  if (!t) return undefined;
  if (NOT_APPLICABLE.test(t)) return NOT_APPLICABLE_DAYS;
  const figures = [...t.matchAll(/\d+/g)].map((m) => Number(m[0]));
  return figures.length ? Math.max(...figures) : null;
}

/** Aplicaciones: "3" or a range "1-3" (the upper bound is the maximum allowed); "NO PROCEDE" states no limit. */
export function maxApplications(value: unknown): number | undefined | null {
  const range = rangeOf(value);
  if (range === undefined || range === null) return range;
  return range[1] > 0 ? range[1] : undefined;
}

/** IntervaloAplicaciones in days: "7" or "7-10" (the lower bound is the minimum interval). */
export function minIntervalDays(value: unknown): number | undefined | null {
  const range = rangeOf(value);
  if (range === undefined || range === null) return range;
  return range[0] > 0 ? range[0] : undefined;
}

/** The first figure or range in the text ("1-3", "7 - 10 días", "2 a 4", "Máx. 2"); other words are ignored. */
function rangeOf(value: unknown): [number, number] | undefined | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? [value, value] : null;
  const t = textOf(value).trim();
  if (!t || NOT_APPLICABLE.test(t)) return undefined;
  const m = /(?<![\d.,])(\d+)(?:\s*(?:-|–|a|al)\s*(\d+))?(?![\d.,]*[.,]\d)/i.exec(t);
  if (!m) return null;
  const low = Number(m[1]);
  const high = m[2] === undefined ? low : Number(m[2]);
  return low <= high ? [low, high] : [high, low];
}

/** A register cell as text: strings as they are, numbers written out, anything else (absent, null, a list) empty. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
