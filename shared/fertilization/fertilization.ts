import { FertilizeRequest } from './wire';
import { SupplierId, supplierIds } from '../domain/fertilizer-supplier';

/**
 * A fertilization as the domain reads it: codes as numbers, days as ISO days, absent things as null. The wire body
 * (`FertilizeRequest`) maps to it once validated and back for an amendment's merge patch; nothing in the rules or
 * the CUE mapping reads the wire shape.
 */
interface Content {
  code: number;
  percent: number;
}

export interface Fertilization {
  /** ISO days (Madrid); `end` is `start` when the request gave none. */
  start: string;
  end: string;
  idcp: number[];
  material: {
    code: number;
    name: string;
    nutrients: Content[];
    micronutrients: Content[];
    heavyMetals: Content[];
    treatment: number | null;
    supplier: { by: SupplierId; id: string; name: string } | null;
    productName: string | null;
    /** kg/L. */
    density: number | null;
  };
  kind: number;
  method: number;
  dose: number;
  unit: Unit;
  /** Fertilized hectares as the request states them (text, as treatments keep theirs); null: all the locations. */
  surface: string | null;
  sludge: boolean;
  goodPractices: number[];
  fertigation: {
    system: number;
    waterOrigins: number[];
    quantity: number | null;
    unit: Unit;
    nDose: number;
    nUnit: Unit;
    pDose: number;
    pUnit: Unit;
  } | null;
  /** The machine: a ROMA number, or the ERP's own reference and the UNE type. */
  machine: { une: string; name: string; roma: string; ref: string; inspection: string; registered?: string } | null;
  manual: boolean;
  detail: string | null;
  /** The names the request gave its codes, by the code's path (`kind`, `goodPractices.3`): echoed, never judged. */
  names: Record<string, string>;
}

/** A UNIDADES_MEDIDA code with the symbol and name the request wrote it with. */
interface Unit {
  code: number;
  symbol: string;
  name: string;
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

export function fertilizationOf(r: FertilizeRequest): Fertilization {
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
      density: m.density ?? null,
    },
    kind: Number(r.kind.id),
    method: Number(r.method.id),
    dose: r.dose,
    unit: unitOf(r.measure),
    surface: r.surface ?? null,
    sludge: r.sludge,
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

/** Back to the wire, for an amendment's merge patch: what `fertilizationOf` reads, in the request's terms. */
export function requestOf(f: Fertilization): FertilizeRequest {
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
      ...(m.density !== null ? { density: m.density } : {}),
    },
    kind: { type: 'TypeFertilization', id: String(f.kind), name: name('kind') },
    method: { type: 'TypeFertilizationMethod', id: String(f.method), name: name('method') },
    dose: f.dose,
    measure: measure(f.unit),
    ...(f.surface !== null ? { surface: f.surface } : {}),
    sludge: f.sludge,
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
