/**
 * How long after an application its record may still be registered, counted on Madrid's calendar: each record kind
 * says its own (RecordKind.recordingWindow), by days or by months, as its law or the operators set it.
 */
export interface BackdateWindow {
  /** The span as luxon adds it: a month goes date to date, and to the month's last day when it has no such date. */
  span: { days: number } | { months: number };
  /** The window as an error message names it, with its legal source when the law sets it. */
  label: string;
}

/** A window of whole days. */
export function daysWindow(days: number): BackdateWindow {
  return { span: { days }, label: `${days} days` };
}

/** The most days the window can reach back (a month is at most 31), for what must keep that much at hand. */
export function longestDays(window: BackdateWindow): number {
  return 'days' in window.span ? window.span.days : window.span.months * 31;
}
