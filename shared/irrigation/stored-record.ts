import { Irrigation, Unit } from './irrigation';

/**
 * An irrigation's record as its row keeps it, format 1 (the first: nothing older to read): the request's fields as
 * registered (codes with the names the client gave, days DD-MM-YYYY). The kind's own type, written by record-view.ts;
 * the API answers it through the wire mapper (wire-mapper.ts), so either can change.
 */
export const IRRIGATION_FORMAT = 1;

export interface StoredIrrigation extends RecordFields {
  id: string;
  dateCreated: string;
  dateModified: string;
  /** The water in m3 as judged (through the units catalogue in force then): of the whole, or per hectare. */
  water: { m3: number; perHa: boolean };
  exported: '0' | '1';
}

/** The request's fields as the record keeps them: the registration body as the API accepted it. */
export interface RecordFields {
  type: 'AgriIrrigation';
  dateStart: string;
  dateEnd: string;
  idcp: string[];
  system: Coded;
  quantity: number;
  measure: { type: 'Measure'; name: string; symbol: string; code: number };
  waterOrigins: Coded[];
  energy?: Coded;
  meter?: string;
  goodPractices: Coded[];
  detail?: string;
}

/** A SIEX code as the seed writes one: `{ type, id, name }`. */
interface Coded {
  type: string;
  id: string;
  name: string;
}

const isoDay = (day: string) => `${day.slice(6, 10)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
const dmy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
const unitOf = (m: Unit): Unit => ({ code: m.code, symbol: m.symbol, name: m.name });

/** A record's request fields as the irrigation they stand for. */
export function irrigationOf(r: RecordFields): Irrigation {
  return {
    start: isoDay(r.dateStart),
    end: isoDay(r.dateEnd),
    idcp: r.idcp.map(Number),
    system: Number(r.system.id),
    quantity: r.quantity,
    unit: unitOf(r.measure),
    waterOrigins: r.waterOrigins.map((o) => Number(o.id)),
    energy: r.energy ? Number(r.energy.id) : null,
    meter: r.meter ?? null,
    goodPractices: r.goodPractices.map((g) => Number(g.id)),
    detail: r.detail ?? null,
    names: {
      system: r.system.name,
      ...(r.energy ? { energy: r.energy.name } : {}),
      ...Object.fromEntries(r.waterOrigins.map((o) => [`waterOrigins.${o.id}`, o.name])),
      ...Object.fromEntries(r.goodPractices.map((g) => [`goodPractices.${g.id}`, g.name])),
    },
  };
}

/** An irrigation as its record's request fields: what `irrigationOf` reads. */
export function recordFieldsOf(i: Irrigation): RecordFields {
  const name = (key: string) => i.names[key] ?? '';
  return {
    type: 'AgriIrrigation',
    dateStart: dmy(i.start),
    dateEnd: dmy(i.end),
    idcp: i.idcp.map(String),
    system: { type: 'TypeIrrigationSystem', id: String(i.system), name: name('system') },
    quantity: i.quantity,
    measure: { type: 'Measure', ...unitOf(i.unit) },
    waterOrigins: i.waterOrigins.map((o) => ({
      type: 'TypeWaterOrigin',
      id: String(o),
      name: name(`waterOrigins.${o}`),
    })),
    ...(i.energy !== null ? { energy: { type: 'TypeEnergy', id: String(i.energy), name: name('energy') } } : {}),
    ...(i.meter !== null ? { meter: i.meter } : {}),
    goodPractices: i.goodPractices.map((g) => ({
      type: 'TypeGoodPractice',
      id: String(g),
      name: name(`goodPractices.${g}`),
    })),
    ...(i.detail !== null ? { detail: i.detail } : {}),
  };
}
