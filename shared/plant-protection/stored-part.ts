import { parseDateTime } from '../domain/dates';
import { Machine, MachineDocument } from '../domain/equipment';
import { DomainError, violation } from '../domain/errors';
import { PestKind } from '../domain/pest-kind';
import { Amount, Coded, PassPart, Pest, ProductDose, ProductPart, Unit } from './product-part';

/**
 * The product part as a treatment's request is stored, format 1 of every treatment kind: the registration body's
 * fields as the API accepted them (an absent field is not given), and the mapping to the domain value and back. Each
 * treatment kind's stored request is these fields and its own (its folder's stored-request.ts); a change of them is a
 * new format of each.
 */
export interface StoredPart {
  subtype: StoredProduct;
  dose: number;
  measure: StoredMeasure;
  mix?: StoredMixItem[];
  applicator: { user: { type: 'UserMetadata'; nif: string; ropo: string } };
  infection?: StoredInfection;
  tj?: StoredCoded<'TypeJustification'>[];
  efficacy?: StoredCoded<'TypeEfficacy'> & { detail: string };
  machine?: MachineDocument[];
  manual?: boolean;
  advisor?: { type: 'UserMetadata'; ropo: string; nif?: string };
  detail?: string;
  batch?: string;
  dt?: string;
  mdt?: StoredMeasure;
}

/** The stored product part of a pass that may have no product (product-part.ts, `PassPart`): a measure alone. */
export type StoredPassPart = Omit<StoredPart, 'subtype' | 'dose' | 'measure'> &
  Partial<Pick<StoredPart, 'subtype' | 'dose' | 'measure'>>;

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

export interface StoredCoded<T extends string> {
  type: T;
  id: string;
  name: string;
}

/** A product at its dose as stored, with the total used when the request gave it: a mix item's, for one. */
export interface StoredProductDose {
  subtype: StoredProduct;
  dose: number;
  measure: StoredMeasure;
  dt?: string;
  mdt?: StoredMeasure;
}

interface StoredMixItem extends StoredProductDose {
  batch?: string;
  infection?: StoredInfection;
}

export const unitOf = (m: StoredMeasure): Unit => ({ code: m.code, symbol: m.symbol, name: m.name });
export const amountOf = (value: string | undefined, unit: StoredMeasure | undefined): Amount | null =>
  value !== undefined && unit ? { value, unit: unitOf(unit) } : null;
const pestOf = (i: StoredInfection): Pest => ({ kind: i.kind, code: i.id, name: i.name });
export const codedOf = (c: { id: string; name: string }): Coded => ({ code: c.id, name: c.name });
export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

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
/** `{ key: value }`, or nothing for null: a field the request did not give stays absent. */
export const given = <K extends string, V>(key: K, value: V | null): { [k in K]?: V } =>
  (value === null ? {} : { [key]: value }) as { [k in K]?: V };

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

/** A stored product at its dose (a mix item's, with its batch and pest) as the domain reads it. */
export function doseOf(p: StoredProductDose & { batch?: string; infection?: StoredInfection }): ProductDose {
  return productOf(p.subtype, p.dose, p.measure, p);
}

/** A product at its dose as stored: every field it gave, none it did not. */
export function storedDoseOf(p: ProductDose): StoredProductDose {
  return {
    subtype: { type: 'TypePhytosanitary', name: p.name, code: p.code },
    dose: p.dose,
    measure: storedMeasure(p.unit),
    ...given('dt', p.total && p.total.value),
    ...given('mdt', p.total && storedMeasure(p.total.unit)),
  };
}

/** A stored request's product part as the domain reads it. */
export function partOf(r: StoredPart): ProductPart {
  return { ...passOf(r), product: productOf(r.subtype, r.dose, r.measure, { dt: r.dt, mdt: r.mdt, batch: r.batch }) };
}

/** A stored pass as the domain reads it: its product, when it names one. */
export function passOf(r: StoredPassPart): PassPart {
  const { subtype, dose, measure } = r;
  return {
    product:
      subtype && dose !== undefined && measure
        ? productOf(subtype, dose, measure, { dt: r.dt, mdt: r.mdt, batch: r.batch })
        : null,
    mix: (r.mix ?? []).map(doseOf),
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
    detail: orNull(r.detail),
  };
}

const storedProduct = (p: ProductDose): StoredProduct => ({ type: 'TypePhytosanitary', name: p.name, code: p.code });

/** The product part as its request is stored: every field it gave, none it did not. */
export function storedPartOf(t: ProductPart): StoredPart {
  const p = t.product;
  // A pass with its product stores it where it always did: the keys keep their places in storedPassOf's order.
  return { ...storedPassOf(t), subtype: storedProduct(p), dose: p.dose, measure: storedMeasure(p.unit) };
}

/** A pass as its request is stored: its product's fields only when it has one. */
export function storedPassOf(t: PassPart): StoredPassPart {
  const p = t.product;
  return {
    ...(p ? { subtype: storedProduct(p), dose: p.dose, measure: storedMeasure(p.unit) } : {}),
    ...(t.mix.length > 0
      ? {
          mix: t.mix.map((m) => ({
            ...storedDoseOf(m),
            ...given('batch', m.batch),
            ...given('infection', m.infection && storedInfection(m.infection)),
          })),
        }
      : {}),
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
    ...given('detail', t.detail),
    ...given('batch', p && p.batch),
    ...given('dt', p && p.total && p.total.value),
    ...given('mdt', p && p.total && storedMeasure(p.total.unit)),
  };
}

/** The application instant a request states (`dateApplication`, Madrid, at `path`), or a DomainError INVALID_DATE. */
export function applicationInstant(text: string, path = 'body.dateApplication') {
  const at = parseDateTime(text);
  if (!at) {
    throw new DomainError('The application date is not valid.', [
      violation('INVALID_DATE', path, 'expected a real Madrid local time DD-MM-YYYY HH:mm:ss'),
    ]);
  }
  return at;
}
