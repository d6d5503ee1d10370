import { z } from 'zod';
import { catalogueDay, parseCsv } from './csv';

/**
 * The SIEX code catalogues as FEGA publishes them (Anexo VII). Each definition says which file it comes from and which
 * header holds the name; the code is the first column unless it names another. Columns are found by header text, not position, so a
 * catalogue that gains a column still imports.
 *
 * These are the catalogues the catalog itself reads (units, crops, pests for the products register) and those more
 * than one record kind may: a kind's own catalogues are declared in its folder, and the catalogue code takes the whole
 * set as a parameter (the app's registry of them, shared/app/siex-catalogues.ts).
 */
export const CATALOGUES = {
  UNIDADES_MEDIDA: { file: 'UNIDADES_MEDIDA.csv', name: 'Unidades de medida' },
  PRODUCTOS: { file: 'PRODUCTOS.csv', name: 'Cultivo', eppo: 'EPPO' },
  ENFERMEDADES: {
    file: 'ENFERMEDADES.csv',
    name: 'Categoría',
    scientific: 'Nombre científico',
    eppo: 'EPPO cd',
    path: 'Código',
  },
  PLAGAS: { file: 'PLAGAS.csv', name: 'Categoría', scientific: 'Nombre científico', eppo: 'EPPO cd', path: 'Código' },
  MALAS_HIERBAS: {
    file: 'MALAS_HIERBAS.csv',
    name: 'Categoría',
    scientific: 'Nombre científico',
    eppo: 'EPPO cd',
    path: 'Código',
  },
  REGULADORES_CRECIMIENTO: {
    file: 'REGULADORES_CRECIMIENTO.csv',
    name: 'Categoría',
    scientific: 'Nombre científico / Denominación en inglés',
    eppo: 'EPPO cd',
    path: 'Código',
  },
  JUSTIFICACION_ACTUACION: { file: 'JUSTIFICACION_ACTUACION.csv', name: 'Justificación de la actuación' },
  EFICACIA_TRATAMIENTO: { file: 'EFICACIA_TRATAMIENTO.csv', name: 'Eficacia del tratamiento' },
  TIPO_PRODFITO: { file: 'TIPO_PRODFITO.csv', name: 'Tipo de producto fitosanitario' },
  EST_FENOLOGICO: { file: 'EST_FENOLOGICO.csv', name: 'Estado fenológico', path: 'Estadio bibliografía' },
  /** Machinery types of the UNE standard; FEGA publishes this one without dates (every code is in force). */
  TIPO_MAQUINA_UNE: { file: 'TIPO_MAQUINA_UNE.csv', name: 'Descripción', undated: true },
  // How water, and what it carries, reaches a crop: more than one kind names these.
  SIST_RIEGO: { file: 'SIST_RIEGO.csv', name: 'Sistema de riego' },
  ORIGEN_AGUA_RIEGO: { file: 'ORIGEN_AGUA_RIEGO.csv', name: 'Procedencia del agua de riego' },
  /**
   * Plant products: produce and seed, each with the SIEX crops it comes from. FEGA writes a row per product
   * and crop, so an `Id` repeats: its rows are one entry, with every crop whose row is in force. The register import
   * reads the uses on produce and on seed through it (shared/catalog/register/read-scope.ts).
   */
  PROD_VEGETAL: { file: 'PROD_VEGETAL.csv', name: 'Producto', path: 'Código', crops: 'Código SIEX' },
} as const satisfies Catalogues;

/** Catalogues by the name the gateway stores and looks them up by (FEGA's file name, or a scope of one). */
export type Catalogues = Readonly<Record<string, CatalogueDefinition>>;

export interface CatalogueDefinition {
  file: string;
  /** Header of the code's column, when it is not the first (a catalogue that lists each code under its group). */
  code?: string;
  /** Header of the column with the name in words. */
  name: string;
  /** Header of a second name that identifies the entry as well (the scientific name of a pest). */
  scientific?: string;
  eppo?: string;
  /** Header of the hierarchical or bibliographic code (`8.30.2.6`, BBCH stage): pest groups are read from it. */
  path?: string;
  /** The file has no alta / modificación / baja columns. */
  undated?: boolean;
  /** Only the rows whose column `header` holds `value` belong to this catalogue (the others are another scope's). */
  scope?: { header: string; value: string };
  /** Header of a SIEX crop code (PRODUCTOS): a code repeats once per crop, and its rows are one entry with `crops`. */
  crops?: string;
  /** Header of the code, in another catalogue, of what each entry details (DETALLE_MATERIAL_FERT: its MAT_FERTI). */
  parent?: string;
}

export type CatalogueName = keyof typeof CATALOGUES;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * One code of a catalogue as stored and looked up. Dates are ISO days; `until` is the Fecha de baja: the first day
 * the code is no longer valid (a code created and withdrawn on the same day was never valid).
 */
export const siexCodeSchema = z.strictObject({
  code: z.string().min(1),
  name: z.string(),
  scientific: z.string().optional(),
  eppo: z.string().optional(),
  path: z.string().optional(),
  /** The SIEX crops (PRODUCTOS codes) of a catalogue whose codes name a crop's product (PROD_VEGETAL). */
  crops: z.array(z.string()).optional(),
  /** The code, in the catalogue this one details, of what the entry details (DETALLE_MATERIAL_FERT: its MAT_FERTI). */
  parent: z.string().optional(),
  from: z.union([z.literal(''), isoDay]),
  modified: z.union([z.literal(''), isoDay]),
  until: z.union([z.literal(''), isoDay]),
});
export type SiexCode = z.infer<typeof siexCodeSchema>;

export interface CatalogueProblem {
  line: number;
  message: string;
}

export interface ParsedCatalogue {
  entries: SiexCode[];
  problems: CatalogueProblem[];
}

const DATE_HEADERS = { from: 'Fecha de alta', modified: 'Fecha de modificación', until: 'Fecha de baja' } as const;

/**
 * Parses one catalogue's text. Every row that cannot be read is listed with its line (1 = header) and skipped; the
 * rest still import, since one bad row in an official file must not block the other codes. A code repeated in the
 * file keeps its last row, and the repeat is listed.
 */
export function parseCatalogue(def: CatalogueDefinition, text: string): ParsedCatalogue {
  const { rows, problems } = parseCsv(text);
  const [first] = rows;
  if (!first) return { entries: [], problems: [{ line: 1, message: 'empty file' }] };
  const header = first.map((h) => h.trim());
  const column = (title: string | undefined): number => (title === undefined ? -1 : header.indexOf(title));
  const nameAt = column(def.name);
  const dateAt = {
    from: column(DATE_HEADERS.from),
    modified: column(DATE_HEADERS.modified),
    until: column(DATE_HEADERS.until),
  };
  const scopeAt = column(def.scope?.header);
  const missing = [
    def.name,
    ...(def.code ? [def.code] : []),
    ...(def.undated ? [] : Object.values(DATE_HEADERS)),
    ...(def.scope ? [def.scope.header] : []),
    ...(def.crops ? [def.crops] : []),
    ...(def.parent ? [def.parent] : []),
  ].filter((h) => column(h) < 0);
  if (missing.length > 0) {
    return { entries: [], problems: [{ line: 1, message: `missing column(s): ${missing.join(', ')}` }] };
  }
  const optionalAt = {
    scientific: column(def.scientific),
    eppo: column(def.eppo),
    path: column(def.path),
    parent: column(def.parent),
  };
  const cropAt = column(def.crops);
  const codeAt = def.code ? column(def.code) : 0;
  const byCode = new Map<string, SiexCode>();
  const cropRows = new Map<string, CropRow[]>();
  rows.slice(1).forEach((cells, i) => {
    const line = i + 2;
    if (def.scope && (cells[scopeAt] ?? '').trim() !== def.scope.value) return;
    const code = (cells[codeAt] ?? '').trim();
    if (!code) {
      problems.push({ line, message: 'no code' });
      return;
    }
    const dates = { from: '', modified: '', until: '' } as Record<keyof typeof DATE_HEADERS, string>;
    for (const key of Object.keys(DATE_HEADERS) as (keyof typeof DATE_HEADERS)[]) {
      if (dateAt[key] < 0) continue;
      const day = catalogueDay(cells[dateAt[key]] ?? '');
      if (day === null) {
        problems.push({
          line,
          message: `code ${code}: ${DATE_HEADERS[key]} is not a date dd/mm/yyyy: "${cells[dateAt[key]]}"`,
        });
        return;
      }
      dates[key] = day;
    }
    const entry: SiexCode = { code, name: (cells[nameAt] ?? '').trim(), ...dates };
    for (const key of ['scientific', 'eppo', 'path', 'parent'] as const) {
      const value = optionalAt[key] >= 0 ? (cells[optionalAt[key]] ?? '').trim() : '';
      if (value) entry[key] = value;
    }
    if (def.crops) {
      cropRows.set(code, [...(cropRows.get(code) ?? []), { entry, crop: (cells[cropAt] ?? '').trim() }]);
      return;
    }
    if (byCode.has(code)) problems.push({ line, message: `code ${code} repeated; the last row is kept` });
    byCode.set(code, entry);
  });
  for (const [code, cropRowsOfCode] of cropRows) byCode.set(code, withCrops(cropRowsOfCode));
  return { entries: [...byCode.values()], problems };
}

interface CropRow {
  entry: SiexCode;
  crop: string;
}

/**
 * A code's rows, one per crop, as one entry: in force while any of its rows is, with the crops of the rows in force
 * (when none is, every crop it had, and the last day one ended), first entered on its earliest row's day.
 */
function withCrops(rows: readonly CropRow[]): SiexCode {
  const open = rows.filter((r) => !r.entry.until);
  const kept = open.length > 0 ? open : rows;
  const days = (key: 'from' | 'modified' | 'until') =>
    rows
      .map((r) => r.entry[key])
      .filter(Boolean)
      .sort();
  const crops = [...new Set(kept.map((r) => r.crop).filter(Boolean))].sort((a, b) => Number(a) - Number(b));
  return {
    ...rows[0]!.entry,
    from: days('from')[0] ?? '',
    modified: days('modified').at(-1) ?? '',
    until: open.length > 0 ? '' : (days('until').at(-1) ?? ''),
    crops,
  };
}
