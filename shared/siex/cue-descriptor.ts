/**
 * The machinery of FEGA's CUE field descriptor (Anexo VI, `EstructuraCuadernoWS`): each CUE value the gateway writes has
 * a type and a length, held in tables keyed by the value's path. The official JSON schema 3.11.4 says less than the
 * descriptor (a bare `integer` lets an 11-digit IdAjena through, a bare `number` four decimals of a hectare), so a
 * mapping rounds with its table (`cueNumber`) and tests walk every generated document against the tables
 * (`descriptorProblems`).
 *
 * This module holds the kind-free fields (the CUADERNO envelope) and the builders; each record kind declares the fields
 * of its own `ActividadesExplotacion` section beside its block mapping (`sectionFields`), and exposes them through its
 * `cue` mapping (shared/records/record-kind.ts).
 *
 * Each field names its source:
 * - DESCRIPTOR: FEGA's field descriptor, as the audit of issue 23 quotes it.
 * - SCHEMA: the official JSON schema 3.11.4 (data/siex/cue-schema-3.11.4.json): lengths and patterns it states.
 * - SCHEMA_TYPE: the schema's type only; neither it nor the descriptor text we hold gives a length. Codes of a SIEX
 *   catalogue are integers; free text is `^.*$` (one line); a bare `number` is any non-negative number. No length is
 *   enforced where none is known to us.
 * - DESIGN: a field of a section the descriptor text we hold does not describe, given the format the descriptor gives
 *   the same field of a section it does describe: the team's design has every activity block follow the same rules in
 *   the same document. To be checked against FEGA's descriptor of that section when the project holds it.
 */
type CueFormat =
  | { type: 'integer'; digits?: number }
  | { type: 'decimal'; precision: number; scale: number }
  | { type: 'number' }
  | { type: 'string'; minLength?: number; maxLength?: number; pattern?: RegExp }
  | { type: 'boolean' };

export type CueSource = 'DESCRIPTOR' | 'SCHEMA' | 'SCHEMA_TYPE' | 'DESIGN';

export interface CueField {
  format: CueFormat;
  source: CueSource;
}

/** A descriptor table: each field's format, keyed by the value's path in the document, array positions left out. */
export type CueFields = Readonly<Record<string, CueField>>;

const ONE_LINE = /^.*$/;
/** The schema's day pattern, written by the mappings as dd/MM/yyyy. */
const DAY = /^\d{2}\/\d{2}\/\d{4}$/;

export const integer = (source: CueSource, digits?: number): CueField => ({
  format: digits === undefined ? { type: 'integer' } : { type: 'integer', digits },
  source,
});
export const decimal = (precision: number, scale: number, source: CueSource = 'DESCRIPTOR'): CueField => ({
  format: { type: 'decimal', precision, scale },
  source,
});
/** The schema's bare `number`: any non-negative number. */
export const anyNumber: CueField = { format: { type: 'number' }, source: 'SCHEMA_TYPE' };
/** One line of text (the schema's `^.*$`), at the lengths given. */
export const text = (source: CueSource, options: { minLength?: number; maxLength?: number; pattern?: RegExp } = {}) =>
  ({ format: { type: 'string', pattern: ONE_LINE, ...options }, source }) satisfies CueField;
export const flag: CueField = { format: { type: 'boolean' }, source: 'SCHEMA' };
/** A day as the schema writes it (dd/MM/yyyy, 10 characters). */
export const day: CueField = text('SCHEMA', { minLength: 10, maxLength: 10, pattern: DAY });

const ACTIVITIES = 'CUADERNO.ActividadesExplotacion';

/** The path of a field of a section's blocks. */
type SectionPath<S extends string, K> = `${typeof ACTIVITIES}.${S}.${K & string}`;

/**
 * The table of one `ActividadesExplotacion` section, from its fields keyed by their path in a block (`DGCs.Superficie`):
 * each keyed by its path in the document (`CUADERNO.ActividadesExplotacion.<section>.DGCs.Superficie`).
 */
export function sectionFields<S extends string, F extends Record<string, CueField>>(
  section: S,
  fields: F,
): { readonly [K in keyof F as SectionPath<S, K>]: F[K] } {
  return Object.fromEntries(
    Object.entries(fields).map(([path, field]) => [`${ACTIVITIES}.${section}.${path}`, field]),
  ) as { readonly [K in keyof F as SectionPath<S, K>]: F[K] };
}

/** The fields of the CUADERNO item itself: the holding, whatever the kinds of its activity blocks. */
export const ENVELOPE_FIELDS = {
  'CUADERNO.CAExplotacion': text('SCHEMA', { minLength: 2, maxLength: 2 }),
  'CUADERNO.IdTitular': text('SCHEMA', { minLength: 1, maxLength: 20 }),
  'CUADERNO.CodigoRea': text('SCHEMA', { minLength: 14, maxLength: 14 }),
  'CUADERNO.UnidadGestora': text('SCHEMA', { maxLength: 20 }),
} as const satisfies CueFields;

/** The short name of a path: `Superficie` for `...DGCs.Superficie`. */
const leaf = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/**
 * `value` rounded to the decimals of the field at `path` in `fields` (half away from zero, as a person rounds a
 * written figure).
 */
export function cueNumber<F extends CueFields>(fields: F, path: keyof F & string, value: number): number {
  const format = fields[path]!.format;
  if (format.type !== 'decimal') throw new Error(`${path} is not a decimal field`);
  return roundTo(value, format.scale);
}

/**
 * The largest value the decimal field at `path` holds, and its format: number(8,3) holds 99999.999. A record that
 * states more could never go to SIEX, so the rules refuse it when it comes in.
 */
export function cueMax<F extends CueFields>(fields: F, path: keyof F & string): { max: number; format: string } {
  const format = fields[path]!.format;
  if (format.type !== 'decimal') throw new Error(`${path} is not a decimal field`);
  const max = Number((10 ** (format.precision - format.scale) - 10 ** -format.scale).toFixed(format.scale));
  return { max, format: `number(${format.precision},${format.scale})` };
}

/** The nudge by a relative epsilon keeps 1.005 from rounding down because its binary value is 1.00499999…. */
export function roundTo(value: number, scale: number): number {
  const f = 10 ** scale;
  const rounded = Math.round(Math.abs(value) * f * (1 + Number.EPSILON)) / f;
  return Math.sign(value) * rounded;
}

/** How many decimals a finite number is written with in JSON. */
function decimalsOf(value: number): number {
  const [, fraction = ''] = String(value).split('e')[0]!.split('.');
  const exponent = Number(String(value).split('e')[1] ?? 0);
  return Math.max(0, fraction.length - exponent);
}

/**
 * What is wrong with one value at `path` (array positions included, for the message) by the table `fields`; empty
 * when it conforms.
 */
export function valueProblems(fields: CueFields, path: string, value: unknown): string[] {
  const key = path.replace(/\[\d+\]/g, '');
  const field = fields[key];
  const at = `${path} (${leaf(key)})`;
  if (!field) return [`${at}: not in the descriptor table`];
  const f = field.format;
  switch (f.type) {
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: ${JSON.stringify(value)} is not a boolean`];
    case 'integer': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
        return [`${at}: ${JSON.stringify(value)} is not a non-negative integer`];
      if (f.digits !== undefined && String(value).length > f.digits)
        return [`${at}: ${value} has more than ${f.digits} digits`];
      return [];
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0
        ? []
        : [`${at}: ${JSON.stringify(value)} is not a non-negative number`];
    case 'decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        return [`${at}: ${JSON.stringify(value)} is not a non-negative number`];
      const out: string[] = [];
      if (decimalsOf(value) > f.scale) out.push(`${at}: ${value} has more than ${f.scale} decimals`);
      if (value >= 10 ** (f.precision - f.scale))
        out.push(`${at}: ${value} does not fit number(${f.precision},${f.scale})`);
      return out;
    }
    case 'string': {
      if (typeof value !== 'string') return [`${at}: ${JSON.stringify(value)} is not a string`];
      const out: string[] = [];
      if (f.minLength !== undefined && value.length < f.minLength)
        out.push(`${at}: ${JSON.stringify(value)} is shorter than ${f.minLength}`);
      if (f.maxLength !== undefined && value.length > f.maxLength)
        out.push(`${at}: ${JSON.stringify(value)} is longer than ${f.maxLength}`);
      if (f.pattern && !f.pattern.test(value)) out.push(`${at}: ${JSON.stringify(value)} does not match ${f.pattern}`);
      return out;
    }
  }
}

/**
 * Every value of a CUE document (or of a part of it, at `path`) checked against the table `fields`: a value the table
 * does not hold is a problem too, so a field a mapping starts writing cannot escape the check.
 */
export function descriptorProblems(fields: CueFields, doc: unknown, path = ''): string[] {
  if (Array.isArray(doc)) return doc.flatMap((item, i) => descriptorProblems(fields, item, `${path}[${i}]`));
  if (doc !== null && typeof doc === 'object')
    return Object.entries(doc).flatMap(([k, v]) => descriptorProblems(fields, v, path ? `${path}.${k}` : k));
  return valueProblems(fields, path, doc);
}

/** How many leaf values a document holds: a check of 0 values checks nothing. */
export function leafCount(doc: unknown): number {
  if (Array.isArray(doc)) return doc.reduce((n: number, item) => n + leafCount(item), 0);
  if (doc !== null && typeof doc === 'object') return Object.values(doc).reduce((n: number, v) => n + leafCount(v), 0);
  return 1;
}
