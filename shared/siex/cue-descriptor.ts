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
 *   catalogue are integers; free text is `^.*$` (one line); a bare `number` is any non-negative number. No length is
 *   enforced where none is known to us.
 * - DESIGN: a field of another activity block (`Fertilizacion`) that the descriptor text we hold does not describe,
 *   given the format the descriptor gives the same field of `TratamFito` (IdAjena number(10), Superficie number(8,2),
 *   Dosis number(8,3), Cantidad number(8,2)): the team's design has every activity block follow the same rules in the
 *   same document. To be checked against FEGA's Fertilizacion descriptor when the project holds it.
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

const ONE_LINE = /^.*$/;
/** The schema's day pattern, written by the mapping as dd/MM/yyyy. */
const DAY = /^\d{2}\/\d{2}\/\d{4}$/;

const integer = (source: CueSource, digits?: number): CueField => ({
  format: digits === undefined ? { type: 'integer' } : { type: 'integer', digits },
  source,
});
const decimal = (precision: number, scale: number, source: CueSource = 'DESCRIPTOR'): CueField => ({
  format: { type: 'decimal', precision, scale },
  source,
});
const number: CueField = { format: { type: 'number' }, source: 'SCHEMA_TYPE' };
const text = (source: CueSource, options: { minLength?: number; maxLength?: number; pattern?: RegExp } = {}) =>
  ({ format: { type: 'string', pattern: ONE_LINE, ...options }, source }) satisfies CueField;
const flag: CueField = { format: { type: 'boolean' }, source: 'SCHEMA' };

const T = 'CUADERNO.ActividadesExplotacion.TratamFito';
const EQUIPMENT = `${T}.IdentificadorAplicador.EquipoAplicador`;
const F = 'CUADERNO.ActividadesExplotacion.Fertilizacion';
const MATERIAL = `${F}.MaterialFertilizante`;
const APPLICATION = `${F}.AplicacionMaterialFertilizante`;
const FERTIGATION = `${F}.Fertirrigacion`;

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
  // Fertilizacion (RD 1051/2022): one block per fertilization and crop variety, as TratamFito.
  [`${F}.IdAjenaFerti`]: integer('DESIGN', 10),
  [`${F}.Borrar`]: flag,
  [`${F}.FechaInicio`]: text('SCHEMA', { minLength: 10, maxLength: 10, pattern: DAY }),
  [`${F}.FechaFin`]: text('SCHEMA', { minLength: 10, maxLength: 10, pattern: DAY }),
  [`${F}.BuenasPracticas.TipoBPF`]: integer('SCHEMA_TYPE'),
  [`${MATERIAL}.Material`]: integer('SCHEMA_TYPE'),
  [`${MATERIAL}.EmpresaSuministradora`]: text('SCHEMA_TYPE'),
  [`${MATERIAL}.NifEmpresa`]: text('SCHEMA_TYPE'),
  [`${MATERIAL}.REGA`]: text('SCHEMA_TYPE'),
  [`${MATERIAL}.NIMA`]: text('SCHEMA_TYPE'),
  [`${MATERIAL}.TratamientoEstiercoles`]: integer('SCHEMA_TYPE'),
  [`${MATERIAL}.Macronutrientes.TipoMacroN`]: integer('SCHEMA_TYPE'),
  [`${MATERIAL}.Macronutrientes.Porcentaje`]: number,
  [`${MATERIAL}.Micronutrientes.TipoMicroN`]: integer('SCHEMA_TYPE'),
  [`${MATERIAL}.Micronutrientes.Porcentaje`]: number,
  [`${MATERIAL}.MetalesPesados.TipoMetalP`]: integer('SCHEMA_TYPE'),
  [`${MATERIAL}.MetalesPesados.Porcentaje`]: number,
  [`${MATERIAL}.Densidad`]: number,
  // The density's unit (kg/L, UNIDADES_MEDIDA 12); the schema types it `number`, the code is an integer.
  [`${MATERIAL}.UnidadesMedida`]: integer('SCHEMA_TYPE'),
  [`${APPLICATION}.NombreProducto`]: text('SCHEMA_TYPE'),
  [`${APPLICATION}.AplicacionLodos`]: flag,
  [`${APPLICATION}.TipoFertilizacion`]: integer('SCHEMA_TYPE'),
  [`${APPLICATION}.MetodoFertilizacion`]: integer('SCHEMA_TYPE'),
  [`${APPLICATION}.Dosis`]: decimal(8, 3, 'DESIGN'),
  [`${APPLICATION}.Unidad`]: integer('SCHEMA_TYPE'),
  [`${F}.EquipoAplicador.NumROMA`]: text('SCHEMA_TYPE'),
  [`${F}.EquipoAplicador.IdEquipoAplicador`]: text('SCHEMA_TYPE', { minLength: 1 }),
  [`${F}.EquipoAplicador.TipoMaquinariaUNE`]: text('SCHEMA', { maxLength: 12 }),
  [`${FERTIGATION}.SistemaRiego`]: integer('SCHEMA_TYPE'),
  [`${FERTIGATION}.Cantidad`]: decimal(8, 2, 'DESIGN'),
  [`${FERTIGATION}.Unidad`]: integer('SCHEMA_TYPE'),
  [`${FERTIGATION}.OrigenAgua.IdOrigenAgua`]: integer('SCHEMA_TYPE'),
  [`${FERTIGATION}.DosisN`]: decimal(8, 3, 'DESIGN'),
  [`${FERTIGATION}.UnidadDosisN`]: integer('SCHEMA_TYPE'),
  [`${FERTIGATION}.DosisP`]: decimal(8, 3, 'DESIGN'),
  [`${FERTIGATION}.UnidadDosisP`]: integer('SCHEMA_TYPE'),
  [`${F}.DGCs.CodigoDGC`]: integer('SCHEMA_TYPE'),
  [`${F}.DGCs.CodigoCultivo`]: integer('SCHEMA_TYPE'),
  [`${F}.DGCs.Superficie`]: decimal(8, 2, 'DESIGN'),
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
