import { FertilizationPlan } from './plan';

/**
 * A plan's record as its row keeps it, format 1 (the first: nothing older to read): the request's fields as registered
 * (codes with the names the client gave, the day DD-MM-YYYY). The kind's own type, written by record-view.ts; the API
 * answers it through the wire mapper (wire-mapper.ts), so either can change.
 */
export const PLAN_FORMAT = 1;

export interface StoredPlan extends RecordFields {
  id: string;
  dateCreated: string;
  dateModified: string;
  exported: '0' | '1';
}

/** The request's fields as the record keeps them: the registration body as the API accepted it. */
export interface RecordFields {
  type: 'AgriFertilizationPlan';
  date: string;
  idcp: string[];
  needs: { n: number; p2o5: number; k2o: number };
  yieldTarget: number;
  previousCrop: { type: 'TypeCrop'; id: string; name: string };
  tool: boolean;
  detail?: string;
}

const isoDay = (day: string) => `${day.slice(6, 10)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
const dmy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

/** A record's request fields as the plan they stand for. */
export function planOf(r: RecordFields): FertilizationPlan {
  return {
    date: isoDay(r.date),
    idcp: r.idcp.map(Number),
    needs: { n: r.needs.n, p2o5: r.needs.p2o5, k2o: r.needs.k2o },
    yieldTarget: r.yieldTarget,
    previousCrop: Number(r.previousCrop.id),
    tool: r.tool,
    detail: r.detail ?? null,
    names: { previousCrop: r.previousCrop.name },
  };
}

/** A plan as its record's request fields: what `planOf` reads. */
export function recordFieldsOf(p: FertilizationPlan): RecordFields {
  return {
    type: 'AgriFertilizationPlan',
    date: dmy(p.date),
    idcp: p.idcp.map(String),
    needs: { ...p.needs },
    yieldTarget: p.yieldTarget,
    previousCrop: { type: 'TypeCrop', id: String(p.previousCrop), name: p.names.previousCrop ?? '' },
    tool: p.tool,
    ...(p.detail !== null ? { detail: p.detail } : {}),
  };
}
