/**
 * How long after an application its record may still be registered, counted on Madrid's calendar: treatments by days
 * (the operators' MAX_BACKDATE_DAYS), fertilizations by the month RD 1051/2022 gives the farm
 * (shared/fertilization/recording-window.ts).
 */
export interface BackdateWindow {
  /** The span as luxon adds it: a month goes date to date, and to the month's last day when it has no such date. */
  span: { days: number } | { months: number };
  /** The window as an error message names it, with its legal source when the law sets it. */
  label: string;
}

/** A window of whole days; null for none (a correction that keeps its date). */
export function daysWindow(days: number | null): BackdateWindow | null {
  return days === null ? null : { span: { days }, label: `${days} days` };
}

/** The most days the window can reach back (a month is at most 31), for what must keep that much at hand. */
export function longestDays(window: BackdateWindow): number {
  return 'days' in window.span ? window.span.days : window.span.months * 31;
}
