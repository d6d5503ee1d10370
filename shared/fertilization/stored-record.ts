import { MachineDocument } from '../domain/equipment';
import { Content, Fertilization, Unit } from './fertilization';
import { SupplierId, supplierIds } from './fertilizer-supplier';

/**
 * A fertilization's record as its row keeps it, format 1 (the first: nothing older to read): the request's fields as
 * registered (codes with the names the client gave, days DD-MM-YYYY), its last day always written, and the nitrogen it
 * brings, as judged. The kind's own type, written by record-view.ts; the API answers it through the wire mapper
 * (wire-mapper.ts), so either can change.
 */
export const FERTILIZATION_FORMAT = 1;

export interface StoredFertilization extends Omit<RecordFields, 'dateEnd'> {
  id: string;
  dateEnd: string;
  dateCreated: string;
  dateModified: string;
  /** kg N/ha in hundredths; whether it is livestock manure (counted against the 170 kg N/ha on vulnerable ground). */
  nitrogen: { kgPerHa: number; livestockManure: boolean };
  exported: '0' | '1';
}

/** The request's fields as the record keeps them: the registration body as the API accepted it. */
export interface RecordFields {
  type: 'AgriFertilize';
  dateStart: string;
  dateEnd?: string;
  idcp: string[];
  material: {
    type: 'TypeFertilizerMaterial';
    id: string;
    name: string;
    nutrients: ContentField[];
    micronutrients: ContentField[];
    heavyMetals: ContentField[];
    treatment?: Coded;
    supplier?: { name?: string } & { [by in SupplierId]?: string };
    productName?: string;
    /** The commercial product (DETALLE_MATERIAL_FERT): as the request named it, or as its product name found it. */
    detail?: Coded;
    density?: number;
  };
  kind: Coded;
  method: Coded;
  dose: number;
  measure: MeasureField;
  surface?: string;
  sludge: boolean;
  sustainableInputs?: boolean;
  goodPractices: Coded[];
  fertigation?: {
    system: Coded;
    waterOrigins: Coded[];
    quantity?: number;
    measure: MeasureField;
    nDose: number;
    nMeasure: MeasureField;
    pDose: number;
    pMeasure: MeasureField;
  };
  machine?: MachineDocument[];
  manual?: boolean;
  detail?: string;
}

/** A SIEX code as the seed writes one: `{ type, id, name }` (`type` the code's NGSI-LD type, `TypeFertilization`). */
interface Coded {
  type: string;
  id: string;
  name: string;
}

interface ContentField {
  id: string;
  percent: number;
}

interface MeasureField {
  type: 'Measure';
  name: string;
  symbol: string;
  code: number;
}

const isoDay = (day: string) => `${day.slice(6, 10)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;
const dmy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
const unitOf = (m: { code: number; symbol: string; name: string }): Unit => ({
  code: m.code,
  symbol: m.symbol,
  name: m.name,
});
const contents = (items: { id: string; percent: number }[]): Content[] =>
  items.map((i) => ({ code: Number(i.id), percent: i.percent }));

/** A record's request fields as the fertilization they stand for. */
export function fertilizationOf(r: RecordFields): Fertilization {
  const m = r.material;
  const by = m.supplier && supplierIds.find((k) => m.supplier?.[k] !== undefined);
  const machine = r.machine?.[0];
  return {
    start: isoDay(r.dateStart),
    end: isoDay(r.dateEnd ?? r.dateStart),
    idcp: r.idcp.map(Number),
    material: {
      code: Number(m.id),
      name: m.name,
      nutrients: contents(m.nutrients),
      micronutrients: contents(m.micronutrients),
      heavyMetals: contents(m.heavyMetals),
      treatment: m.treatment ? Number(m.treatment.id) : null,
      supplier: m.supplier && by ? { by, id: m.supplier[by] ?? '', name: m.supplier.name ?? '' } : null,
      productName: m.productName ?? null,
      detail: m.detail ? Number(m.detail.id) : null,
      density: m.density ?? null,
    },
    kind: Number(r.kind.id),
    method: Number(r.method.id),
    dose: r.dose,
    unit: unitOf(r.measure),
    surface: r.surface ?? null,
    sludge: r.sludge,
    sustainableInputs: r.sustainableInputs ?? null,
    goodPractices: r.goodPractices.map((g) => Number(g.id)),
    fertigation: r.fertigation
      ? {
          system: Number(r.fertigation.system.id),
          waterOrigins: r.fertigation.waterOrigins.map((o) => Number(o.id)),
          quantity: r.fertigation.quantity ?? null,
          unit: unitOf(r.fertigation.measure),
          nDose: r.fertigation.nDose,
          nUnit: unitOf(r.fertigation.nMeasure),
          pDose: r.fertigation.pDose,
          pUnit: unitOf(r.fertigation.pMeasure),
        }
      : null,
    machine: machine
      ? {
          une: machine.id,
          name: machine.name,
          roma: machine.roma,
          ref: machine.ref,
          inspection: machine.inspection,
          ...(machine.registered !== undefined ? { registered: machine.registered } : {}),
        }
      : null,
    manual: r.manual ?? false,
    detail: r.detail ?? null,
    names: {
      material: m.name,
      treatment: m.treatment?.name ?? '',
      detail: m.detail?.name ?? '',
      kind: r.kind.name,
      method: r.method.name,
      ...Object.fromEntries(r.goodPractices.map((g) => [`goodPractices.${g.id}`, g.name])),
      ...(r.fertigation
        ? {
            system: r.fertigation.system.name,
            ...Object.fromEntries(r.fertigation.waterOrigins.map((o) => [`waterOrigins.${o.id}`, o.name])),
          }
        : {}),
    },
  };
}

/** A fertilization as its record's request fields: what `fertilizationOf` reads. */
export function recordFieldsOf(f: Fertilization): RecordFields {
  const m = f.material;
  const measure = (u: Unit) => ({ type: 'Measure' as const, ...u });
  const name = (key: string) => f.names[key] ?? '';
  return {
    type: 'AgriFertilize',
    dateStart: dmy(f.start),
    ...(f.end !== f.start ? { dateEnd: dmy(f.end) } : {}),
    idcp: f.idcp.map(String),
    material: {
      type: 'TypeFertilizerMaterial',
      id: String(m.code),
      name: m.name,
      nutrients: m.nutrients.map((c) => ({ id: String(c.code), percent: c.percent })),
      micronutrients: m.micronutrients.map((c) => ({ id: String(c.code), percent: c.percent })),
      heavyMetals: m.heavyMetals.map((c) => ({ id: String(c.code), percent: c.percent })),
      ...(m.treatment !== null
        ? { treatment: { type: 'TypeManureTreatment', id: String(m.treatment), name: name('treatment') } }
        : {}),
      ...(m.supplier
        ? { supplier: { [m.supplier.by]: m.supplier.id, ...(m.supplier.name ? { name: m.supplier.name } : {}) } }
        : {}),
      ...(m.productName !== null ? { productName: m.productName } : {}),
      ...(m.detail !== null
        ? { detail: { type: 'TypeFertilizerDetail', id: String(m.detail), name: name('detail') } }
        : {}),
      ...(m.density !== null ? { density: m.density } : {}),
    },
    kind: { type: 'TypeFertilization', id: String(f.kind), name: name('kind') },
    method: { type: 'TypeFertilizationMethod', id: String(f.method), name: name('method') },
    dose: f.dose,
    measure: measure(f.unit),
    ...(f.surface !== null ? { surface: f.surface } : {}),
    sludge: f.sludge,
    ...(f.sustainableInputs !== null ? { sustainableInputs: f.sustainableInputs } : {}),
    goodPractices: f.goodPractices.map((id) => ({
      type: 'TypeGoodPractice',
      id: String(id),
      name: name(`goodPractices.${id}`),
    })),
    ...(f.fertigation
      ? {
          fertigation: {
            system: { type: 'TypeIrrigationSystem', id: String(f.fertigation.system), name: name('system') },
            waterOrigins: f.fertigation.waterOrigins.map((o) => ({
              type: 'TypeWaterOrigin' as const,
              id: String(o),
              name: name(`waterOrigins.${o}`),
            })),
            ...(f.fertigation.quantity !== null ? { quantity: f.fertigation.quantity } : {}),
            measure: measure(f.fertigation.unit),
            nDose: f.fertigation.nDose,
            nMeasure: measure(f.fertigation.nUnit),
            pDose: f.fertigation.pDose,
            pMeasure: measure(f.fertigation.pUnit),
          },
        }
      : {}),
    ...(f.machine
      ? {
          machine: [
            {
              type: 'Machine',
              id: f.machine.une,
              name: f.machine.name,
              roma: f.machine.roma,
              ref: f.machine.ref,
              inspection: f.machine.inspection,
              ...(f.machine.registered !== undefined ? { registered: f.machine.registered } : {}),
            },
          ],
        }
      : {}),
    ...(f.manual ? { manual: true } : {}),
    ...(f.detail !== null ? { detail: f.detail } : {}),
  };
}
