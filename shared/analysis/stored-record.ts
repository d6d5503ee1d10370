import { Analysis, Soil } from './analysis';

/**
 * An analysis's record as its row keeps it, format 1 (the first: nothing older to read): the request's fields as
 * registered (codes with the names the client gave, the day DD-MM-YYYY). The kind's own type, written by
 * record-view.ts; the API answers it through the wire mapper (wire-mapper.ts), so either can change.
 */
export const ANALYSIS_FORMAT = 1;

export interface StoredAnalysis extends RecordFields {
  id: string;
  dateCreated: string;
  dateModified: string;
  exported: '0' | '1';
}

type SoilFields = { [k in keyof Soil]?: number };

/** The request's fields as the record keeps them: the registration body as the API accepted it. */
export interface RecordFields {
  type: 'AgriAnalysis';
  date: string;
  idcp: string[];
  material: Coded;
  analyses: Coded[];
  substances: { id: string; name: string }[];
  laboratory?: { name: string; nif: string };
  report?: string;
  soil?: SoilFields;
  detail?: string;
}

/** A SIEX code as the seed writes one: `{ type, id, name }`. */
interface Coded {
  type: string;
  id: string;
  name: string;
}

const SOIL_KEYS = [
  'organicMatter',
  'sand',
  'silt',
  'clay',
  'ph',
  'phosphorus',
  'potassium',
  'nitrogen',
  'conductivity',
] as const satisfies readonly (keyof Soil)[];

const isoDay = (day: string) => `${day.slice(6, 10)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
const dmy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

/** A record's request fields as the analysis they stand for. */
export function analysisOf(r: RecordFields): Analysis {
  const soil = r.soil;
  return {
    date: isoDay(r.date),
    idcp: r.idcp.map(Number),
    material: Number(r.material.id),
    analyses: r.analyses.map((a) => Number(a.id)),
    substances: r.substances.map((s) => Number(s.id)),
    laboratory: r.laboratory ? { name: r.laboratory.name, nif: r.laboratory.nif } : null,
    report: r.report ?? null,
    soil: soil ? (Object.fromEntries(SOIL_KEYS.map((k) => [k, soil[k] ?? null])) as unknown as Soil) : null,
    detail: r.detail ?? null,
    names: {
      material: r.material.name,
      ...Object.fromEntries(r.analyses.map((a) => [`analyses.${a.id}`, a.name])),
      ...Object.fromEntries(r.substances.map((s) => [`substances.${s.id}`, s.name])),
    },
  };
}

/** An analysis as its record's request fields: what `analysisOf` reads. */
export function recordFieldsOf(a: Analysis): RecordFields {
  const name = (key: string) => a.names[key] ?? '';
  const soil = a.soil;
  return {
    type: 'AgriAnalysis',
    date: dmy(a.date),
    idcp: a.idcp.map(String),
    material: { type: 'TypeAnalyzedMaterial', id: String(a.material), name: name('material') },
    analyses: a.analyses.map((t) => ({ type: 'TypeAnalysis', id: String(t), name: name(`analyses.${t}`) })),
    substances: a.substances.map((s) => ({ id: String(s), name: name(`substances.${s}`) })),
    ...(a.laboratory ? { laboratory: { ...a.laboratory } } : {}),
    ...(a.report !== null ? { report: a.report } : {}),
    ...(soil ? { soil: Object.fromEntries(SOIL_KEYS.flatMap((k) => (soil[k] === null ? [] : [[k, soil[k]]]))) } : {}),
    ...(a.detail !== null ? { detail: a.detail } : {}),
  };
}
