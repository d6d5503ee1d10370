import { z } from 'zod';
import { catalogueDay, parseCsv } from './csv';

/**
 * The SIEX code catalogues as FEGA publishes them (Anexo VII). Each definition says which file it comes from and which
 * header holds the name; the first column is always the code. Columns are found by header text, not position, so a
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
  // Irrigation: how water, and what it carries, reaches a crop.
  SIST_RIEGO: { file: 'SIST_RIEGO.csv', name: 'Sistema de riego' },
  ORIGEN_AGUA_RIEGO: { file: 'ORIGEN_AGUA_RIEGO.csv', name: 'Procedencia del agua de riego' },
} as const satisfies Catalogues;

/** Catalogues by the name the gateway stores and looks them up by (FEGA's file name, or a scope of one). */
export type Catalogues = Readonly<Record<string, CatalogueDefinition>>;

export interface CatalogueDefinition {
  file: string;
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
    ...(def.undated ? [] : Object.values(DATE_HEADERS)),
    ...(def.scope ? [def.scope.header] : []),
  ].filter((h) => column(h) < 0);
  if (missing.length > 0) {
    return { entries: [], problems: [{ line: 1, message: `missing column(s): ${missing.join(', ')}` }] };
  }
  const optionalAt = { scientific: column(def.scientific), eppo: column(def.eppo), path: column(def.path) };
  const byCode = new Map<string, SiexCode>();
  rows.slice(1).forEach((cells, i) => {
    const line = i + 2;
    if (def.scope && (cells[scopeAt] ?? '').trim() !== def.scope.value) return;
    const code = (cells[0] ?? '').trim();
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
    for (const key of ['scientific', 'eppo', 'path'] as const) {
      const value = optionalAt[key] >= 0 ? (cells[optionalAt[key]] ?? '').trim() : '';
      if (value) entry[key] = value;
    }
    if (byCode.has(code)) problems.push({ line, message: `code ${code} repeated; the last row is kept` });
    byCode.set(code, entry);
  });
  return { entries: [...byCode.values()], problems };
}
