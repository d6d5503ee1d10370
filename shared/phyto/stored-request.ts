import { formatDateTime, parseDateTime } from '../domain/dates';
import { Machine, MachineDocument } from '../domain/equipment';
import { DomainError, violation } from '../domain/errors';
import { PestKind } from '../domain/pest-kind';
import { Amount, Coded, Pest, ProductDose, Treatment, Unit } from './treatment';

/**
 * A treatment's request as its record's pointer keeps it, format 1: the registration body as the API accepted it,
 * which pointers have held since the first release (an absent field is not given). The kind's own type: the API's
 * request may change without it; a change of it is a new format, read beside this one (`treatmentOf`).
 */
export interface StoredTreatmentRequest {
  type: 'AgriPhytosanitary';
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  dateApplication: string;
  subtype: StoredProduct;
  dose: number;
  measure: StoredMeasure;
  mix?: StoredMixItem[];
  idcp: string[];
  applicator: { user: { type: 'UserMetadata'; nif: string; ropo: string } };
  infection?: StoredInfection;
  tj?: StoredCoded<'TypeJustification'>[];
  efficacy?: StoredCoded<'TypeEfficacy'> & { detail: string };
  machine?: MachineDocument[];
  manual?: boolean;
  advisor?: { type: 'UserMetadata'; ropo: string; nif?: string };
  phenology?: StoredCoded<'TypePhenology'>;
  detail?: string;
  batch?: string;
  soup?: string;
  dt?: string;
  mdt?: StoredMeasure;
  st?: string;
  mst?: StoredMeasure;
  surface?: string;
  preventive?: StoredFlag;
  distributed?: StoredFlag;
  reviewed?: StoredFlag;
  pp?: string;
  speed?: string;
  recipe?: string;
}

interface StoredProduct {
  type: 'TypePhytosanitary';
  name: string;
  code: string;
}

export interface StoredMeasure {
  type: 'Measure';
  name: string;
  symbol: string;
  code: number;
}

export interface StoredInfection {
  type: 'TypeInfection';
  kind: PestKind;
  id: string;
  name: string;
}

interface StoredCoded<T extends string> {
  type: T;
  id: string;
  name: string;
}

interface StoredMixItem {
  subtype: StoredProduct;
  dose: number;
  measure: StoredMeasure;
  dt?: string;
  mdt?: StoredMeasure;
  batch?: string;
  infection?: StoredInfection;
}

type StoredFlag = '0' | '1';

// Each way, field for field; absent on one side is null on the other.
const unitOf = (m: StoredMeasure): Unit => ({ code: m.code, symbol: m.symbol, name: m.name });
const amountOf = (value: string | undefined, unit: StoredMeasure | undefined): Amount | null =>
  value !== undefined && unit ? { value, unit: unitOf(unit) } : null;
const pestOf = (i: StoredInfection): Pest => ({ kind: i.kind, code: i.id, name: i.name });
const codedOf = (c: { id: string; name: string }): Coded => ({ code: c.id, name: c.name });
const flagOf = (f: StoredFlag | undefined) => (f === undefined ? null : f === '1');
const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

export const storedMeasure = (u: Unit): StoredMeasure => ({
  type: 'Measure',
  name: u.name,
  symbol: u.symbol,
  code: u.code,
});
export const storedInfection = (p: Pest): StoredInfection => ({
  type: 'TypeInfection',
  kind: p.kind,
  id: p.code,
  name: p.name,
});
export const storedMachine = (m: Machine): MachineDocument => ({
  type: 'Machine',
  id: m.une,
  name: m.name,
  roma: m.roma,
  inspection: m.inspection,
  ...(m.registered !== undefined ? { registered: m.registered } : {}),
  ref: m.ref,
});
export const storedCoded = <T extends string>(type: T, c: Coded): StoredCoded<T> => ({
  type,
  id: c.code,
  name: c.name,
});
const given = <K extends string, V>(key: K, value: V | null): { [k in K]?: V } =>
  (value === null ? {} : { [key]: value }) as { [k in K]?: V };
const flag = (f: boolean): StoredFlag => (f ? '1' : '0');

function productOf(
  p: StoredProduct,
  dose: number,
  measure: StoredMeasure,
  extra: { dt?: string; mdt?: StoredMeasure; batch?: string; infection?: StoredInfection },
): ProductDose {
  return {
    code: p.code,
    name: p.name,
    dose,
    unit: unitOf(measure),
    total: amountOf(extra.dt, extra.mdt),
    batch: orNull(extra.batch),
    infection: extra.infection ? pestOf(extra.infection) : null,
  };
}

/** The application instant a request states (Madrid), or a DomainError INVALID_DATE. */
function appliedAtOf(text: string) {
  const at = parseDateTime(text);
  if (!at) {
    throw new DomainError('The application date is not valid.', [
      violation('INVALID_DATE', 'body.dateApplication', 'expected a real Madrid local time DD-MM-YYYY HH:mm:ss'),
    ]);
  }
  return at;
}

/** A stored request as the treatment it stands for. */
export function treatmentOf(r: StoredTreatmentRequest): Treatment {
  return {
    appliedAt: appliedAtOf(r.dateApplication),
    product: productOf(r.subtype, r.dose, r.measure, { dt: r.dt, mdt: r.mdt, batch: r.batch }),
    mix: (r.mix ?? []).map((m) => productOf(m.subtype, m.dose, m.measure, m)),
    idcp: r.idcp.map(Number),
    applicator: { nif: r.applicator.user.nif, ropo: r.applicator.user.ropo },
    advisor: r.advisor ? { ropo: r.advisor.ropo, nif: orNull(r.advisor.nif) } : null,
    infection: r.infection ? pestOf(r.infection) : null,
    justifications: r.tj ? r.tj.map(codedOf) : null,
    efficacy: r.efficacy ? { ...codedOf(r.efficacy), detail: r.efficacy.detail } : null,
    machines: r.machine
      ? r.machine.map((m) => ({
          une: m.id,
          name: m.name,
          roma: m.roma,
          ref: m.ref,
          inspection: m.inspection,
          ...(m.registered !== undefined ? { registered: m.registered } : {}),
        }))
      : null,
    manual: orNull(r.manual),
    phenology: r.phenology ? codedOf(r.phenology) : null,
    detail: orNull(r.detail),
    soup: orNull(r.soup),
    area: amountOf(r.st, r.mst),
    surface: orNull(r.surface),
    preventive: flagOf(r.preventive),
    distributed: flagOf(r.distributed),
    reviewed: flagOf(r.reviewed),
    pp: orNull(r.pp),
    speed: orNull(r.speed),
    recipe: orNull(r.recipe),
  };
}

/** A treatment as its request is stored: the fields in the order the API's schema has them, as it always wrote them. */
export function storedRequestOf(t: Treatment): StoredTreatmentRequest {
  const p = t.product;
  return {
    type: 'AgriPhytosanitary',
    dateApplication: formatDateTime(t.appliedAt),
    subtype: { type: 'TypePhytosanitary', name: p.name, code: p.code },
    dose: p.dose,
    measure: storedMeasure(p.unit),
    ...(t.mix.length > 0
      ? {
          mix: t.mix.map((m) => ({
            subtype: { type: 'TypePhytosanitary', name: m.name, code: m.code },
            dose: m.dose,
            measure: storedMeasure(m.unit),
            ...given('dt', m.total && m.total.value),
            ...given('mdt', m.total && storedMeasure(m.total.unit)),
            ...given('batch', m.batch),
            ...given('infection', m.infection && storedInfection(m.infection)),
          })),
        }
      : {}),
    idcp: t.idcp.map(String),
    applicator: { user: { type: 'UserMetadata', nif: t.applicator.nif, ropo: t.applicator.ropo } },
    ...given('infection', t.infection && storedInfection(t.infection)),
    ...given('tj', t.justifications && t.justifications.map((j) => storedCoded('TypeJustification', j))),
    ...given('efficacy', t.efficacy && { ...storedCoded('TypeEfficacy', t.efficacy), detail: t.efficacy.detail }),
    ...given('machine', t.machines && t.machines.map(storedMachine)),
    ...given('manual', t.manual),
    ...given(
      'advisor',
      t.advisor && {
        type: 'UserMetadata' as const,
        ropo: t.advisor.ropo,
        ...(t.advisor.nif !== null ? { nif: t.advisor.nif } : {}),
      },
    ),
    ...given('phenology', t.phenology && storedCoded('TypePhenology', t.phenology)),
    ...given('detail', t.detail),
    ...given('batch', p.batch),
    ...given('soup', t.soup),
    ...given('dt', p.total && p.total.value),
    ...given('mdt', p.total && storedMeasure(p.total.unit)),
    ...given('st', t.area && t.area.value),
    ...given('mst', t.area && storedMeasure(t.area.unit)),
    ...given('surface', t.surface),
    ...given('preventive', t.preventive === null ? null : flag(t.preventive)),
    ...given('distributed', t.distributed === null ? null : flag(t.distributed)),
    ...given('reviewed', t.reviewed === null ? null : flag(t.reviewed)),
    ...given('pp', t.pp),
    ...given('speed', t.speed),
    ...given('recipe', t.recipe),
  };
}
