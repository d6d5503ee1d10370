import { parse } from 'csv-parse/sync';

/**
 * The SIEX catalogues are published as `;`-separated CSV in Windows-1252 with `"`-quoted fields (a quote inside a
 * field is doubled). Dates are `dd/mm/yyyy`. Pure functions only: reading files is the caller's job.
 */

/** A catalogue's rows, and the text that could not be read as a row (its line, why). */
interface CsvRows {
  rows: string[][];
  problems: { line: number; message: string }[];
}

/**
 * RFC 4180-style rows with a configurable separator: quoted fields may hold separators, doubled quotes and line
 * breaks; lines end with LF or CRLF, even mixed; blank lines are skipped; rows may differ in length, and a stray quote
 * inside an unquoted field is kept as text. The one thing left that cannot be read, a quoted field still open at the
 * end of the file, is a problem and the rows before it stand.
 */
export function parseCsv(text: string, separator = ';'): CsvRows {
  const problems: CsvRows['problems'] = [];
  const rows = parse(text, {
    delimiter: separator,
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (e) => {
      if (e) problems.push({ line: Number(e.lines), message: e.message });
    },
  });
  // A line holding only "" has one empty field, as a blank line would.
  return { rows: rows.filter((row) => row.length > 1 || row[0] !== ''), problems };
}

/** `dd/mm/yyyy` as the ISO day `yyyy-mm-dd` (sorts and compares as text), '' for an empty cell, null when malformed. */
export function catalogueDay(text: string): string | null {
  const t = text.trim();
  if (t === '') return '';
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
