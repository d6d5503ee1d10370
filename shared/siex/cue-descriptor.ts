/**
 * The one table of every CUE value the gateway writes, with its type and length as FEGA's field descriptor gives them
 * (Anexo VI, `EstructuraCuadernoWS`). The official JSON schema 3.11.4 says less than the descriptor (a bare `integer`
 * lets an 11-digit IdAjena through, a bare `number` four decimals of a hectare), so the mapping rounds with this table
 * (`cueNumber`) and tests walk every generated document against it (`descriptorProblems`).
 *
 * Each field names its source:
 * - DESCRIPTOR: FEGA's field descriptor, as the audit of issue 23 quotes it (IdAjena number(10), HoraTratamiento
 *   string(8) HH:MM:SS, Superficie number(8,2), Dosis number(8,3), Cantidad number(8,2)).
 * - SCHEMA: the official JSON schema 3.11.4 (data/siex/cue-schema-3.11.4.json): lengths and patterns it states.
 * - SCHEMA_TYPE: the schema's type only; neither it nor the descriptor text we hold gives a length. Codes of a SIEX
 *   catalogue are integers; free text is `^.*$` (one line). No length is enforced where none is known to us.
 */
type CueFormat =
  | { type: 'integer'; digits?: number }
  | { type: 'decimal'; precision: number; scale: number }
  | { type: 'string'; minLength?: number; maxLength?: number; pattern?: RegExp }
  | { type: 'boolean' };

export type CueSource = 'DESCRIPTOR' | 'SCHEMA' | 'SCHEMA_TYPE';

export interface CueField {
  format: CueFormat;
  source: CueSource;
}

const ONE_LINE = /^.*$/;
/** The schema's day pattern, written by the mapping as dd/MM/yyyy. */
const DAY = /^\d{2}\/\d{2}\/\d{4}$/;

const integer = (source: CueSource, digits?: number): CueField => ({
  format: digits === undefined ? { type: 'integer' } : { type: 'integer', digits },
  source,
});
const decimal = (precision: number, scale: number): CueField => ({
  format: { type: 'decimal', precision, scale },
  source: 'DESCRIPTOR',
});
const text = (source: CueSource, options: { minLength?: number; maxLength?: number; pattern?: RegExp } = {}) =>
  ({ format: { type: 'string', pattern: ONE_LINE, ...options }, source }) satisfies CueField;
const flag: CueField = { format: { type: 'boolean' }, source: 'SCHEMA' };

const T = 'CUADERNO.ActividadesExplotacion.TratamFito';
const EQUIPMENT = `${T}.IdentificadorAplicador.EquipoAplicador`;

/** Keyed by the value's path in the document, array positions left out. */
export const CUE_FIELDS = {
  'CUADERNO.CAExplotacion': text('SCHEMA', { minLength: 2, maxLength: 2 }),
  'CUADERNO.IdTitular': text('SCHEMA', { minLength: 1, maxLength: 20 }),
  'CUADERNO.CodigoRea': text('SCHEMA', { minLength: 14, maxLength: 14 }),
  'CUADERNO.UnidadGestora': text('SCHEMA', { maxLength: 20 }),
  [`${T}.IdAjenaTratamFito`]: integer('DESCRIPTOR', 10),
  [`${T}.Borrar`]: flag,
  [`${T}.FechaInicio`]: text('SCHEMA', { minLength: 10, maxLength: 10, pattern: DAY }),
  [`${T}.FechaFin`]: text('SCHEMA', { minLength: 10, maxLength: 10, pattern: DAY }),
  [`${T}.HoraTratamiento`]: text('DESCRIPTOR', {
    minLength: 8,
    maxLength: 8,
    pattern: /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/,
  }),
  [`${T}.DGCs.CodigoDGC`]: integer('SCHEMA_TYPE'),
  [`${T}.DGCs.CodigoCultivo`]: integer('SCHEMA_TYPE'),
  [`${T}.DGCs.Superficie`]: decimal(8, 2),
  [`${T}.DGCs.EstadoFenologico`]: integer('SCHEMA_TYPE'),
  [`${T}.ProblematicaFito.Enfermedades.TipoEnfermedad`]: integer('SCHEMA_TYPE'),
  [`${T}.ProblematicaFito.ArtropodosGasteropodos.TipoPlaga`]: integer('SCHEMA_TYPE'),
  [`${T}.ProblematicaFito.MalasHierbas.TipoMalaHierba`]: integer('SCHEMA_TYPE'),
  [`${T}.ProblematicaFito.ReguladoresOtros.TipoRegulador`]: integer('SCHEMA_TYPE'),
  [`${T}.Justificaciones.JustAct`]: integer('SCHEMA_TYPE'),
  [`${T}.ProductosFito.TipoProducto`]: integer('SCHEMA_TYPE'),
  [`${T}.ProductosFito.NumRegistro`]: text('SCHEMA_TYPE'),
  [`${T}.ProductosFito.Dosis`]: decimal(8, 3),
  // Not written today (the dose goes as Dosis in its unit: shared/siex/cue-mapping.ts), held for when it is.
  [`${T}.ProductosFito.Cantidad`]: decimal(8, 2),
  [`${T}.ProductosFito.Unidad`]: integer('SCHEMA_TYPE'),
  [`${T}.IdentificadorAplicador.AplicadorEmpresa.NumROPO`]: text('SCHEMA_TYPE'),
  [`${EQUIPMENT}.AplicacionManual`]: flag,
  [`${EQUIPMENT}.NumROMA`]: text('SCHEMA_TYPE'),
  [`${EQUIPMENT}.IdEquipoAplicador`]: text('SCHEMA_TYPE', { minLength: 1 }),
  [`${EQUIPMENT}.TipoMaquinariaUNE`]: text('SCHEMA', { maxLength: 12 }),
  [`${T}.AsesorValidacion.NumROPO`]: text('SCHEMA_TYPE'),
  [`${T}.AsesorValidacion.Validacion`]: flag,
  [`${T}.AsesorValidacion.Observaciones`]: text('SCHEMA_TYPE'),
  [`${T}.Eficacia`]: integer('SCHEMA_TYPE'),
  [`${T}.Observaciones`]: text('SCHEMA_TYPE'),
} as const satisfies Record<string, CueField>;

export type CuePath = keyof typeof CUE_FIELDS;

/** The short name of a path: `Superficie` for `...DGCs.Superficie`. */
const leaf = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/**
 * `value` rounded to the field's decimals (half away from zero, as a person rounds a written figure). The nudge by a
 * relative epsilon keeps 1.005 from rounding down because its binary value is 1.00499999….
 */
export function cueNumber(path: CuePath, value: number): number {
  const format = CUE_FIELDS[path].format;
  if (format.type !== 'decimal') throw new Error(`${path} is not a decimal field`);
  return roundTo(value, format.scale);
}

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

/** What is wrong with one value at `path` (array positions included, for the message); empty when it conforms. */
export function valueProblems(path: string, value: unknown): string[] {
  const key = path.replace(/\[\d+\]/g, '');
  const field = (CUE_FIELDS as Record<string, CueField>)[key];
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
 * Every value of a CUE document (or of a part of it, at `path`) checked against the table: a value the table does
 * not hold is a problem too, so a field the mapping starts writing cannot escape the check.
 */
export function descriptorProblems(doc: unknown, path = ''): string[] {
  if (Array.isArray(doc)) return doc.flatMap((item, i) => descriptorProblems(item, `${path}[${i}]`));
  if (doc !== null && typeof doc === 'object')
    return Object.entries(doc).flatMap(([k, v]) => descriptorProblems(v, path ? `${path}.${k}` : k));
  return valueProblems(path, doc);
}

/** How many leaf values a document holds: a check of 0 values checks nothing. */
export function leafCount(doc: unknown): number {
  if (Array.isArray(doc)) return doc.reduce((n: number, item) => n + leafCount(item), 0);
  if (doc !== null && typeof doc === 'object') return Object.values(doc).reduce((n: number, v) => n + leafCount(v), 0);
  return 1;
}
