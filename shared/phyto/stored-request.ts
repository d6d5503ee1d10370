import { formatDateTime } from '../domain/dates';
import {
  amountOf,
  applicationInstant,
  codedOf,
  given,
  orNull,
  passOf,
  StoredCoded,
  StoredMeasure,
  StoredPassPart,
  storedCoded,
  storedMeasure,
  storedPassOf,
  unitOf,
} from '../plant-protection/stored-part';
import { OtherMeasure, Treatment } from './treatment';

/**
 * A treatment's request as its record's pointer keeps it, format 1: the registration body as the API accepted it,
 * which pointers have held since the first release (an absent field is not given). The kind's own type: the API's
 * request may change without it; a change of it is a new format, read beside this one (`treatmentOf`).
 */
export interface StoredTreatmentRequest extends StoredPassPart {
  type: 'AgriPhytosanitary';
  /** A non-chemical measure instead of a product (then subtype, dose and measure are absent). */
  otherMeasure?: StoredOtherMeasure;
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  dateApplication: string;
  idcp: string[];
  phenology?: StoredCoded<'TypePhenology'>;
  soup?: string;
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

type StoredFlag = '0' | '1';

export interface StoredOtherMeasure extends StoredCoded<'TypePhytoMeasure'> {
  quantity: number;
  measure: StoredMeasure;
  mdfRegistration?: string;
  goodPractice?: StoredCoded<'TypeGoodPractice'>;
}

const otherMeasureOf = (m: StoredOtherMeasure): OtherMeasure => ({
  measure: codedOf(m),
  quantity: m.quantity,
  unit: unitOf(m.measure),
  mdfRegistration: orNull(m.mdfRegistration),
  goodPractice: m.goodPractice ? codedOf(m.goodPractice) : null,
});

export const storedOtherMeasure = (m: OtherMeasure): StoredOtherMeasure => ({
  ...storedCoded('TypePhytoMeasure', m.measure),
  quantity: m.quantity,
  measure: storedMeasure(m.unit),
  ...given('mdfRegistration', m.mdfRegistration),
  ...given('goodPractice', m.goodPractice && storedCoded('TypeGoodPractice', m.goodPractice)),
});

const flagOf = (f: StoredFlag | undefined) => (f === undefined ? null : f === '1');
const flag = (f: boolean): StoredFlag => (f ? '1' : '0');

/** A stored request as the treatment it stands for. */
export function treatmentOf(r: StoredTreatmentRequest): Treatment {
  return {
    ...passOf(r),
    otherMeasure: r.otherMeasure ? otherMeasureOf(r.otherMeasure) : null,
    appliedAt: applicationInstant(r.dateApplication),
    idcp: r.idcp.map(Number),
    phenology: r.phenology ? codedOf(r.phenology) : null,
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
  const part = storedPassOf(t);
  const { mix, applicator } = part;
  const keep = <K extends keyof StoredPassPart>(key: K) => given(key, part[key] ?? null);
  return {
    type: 'AgriPhytosanitary',
    dateApplication: formatDateTime(t.appliedAt),
    ...keep('subtype'),
    ...keep('dose'),
    ...keep('measure'),
    ...given('otherMeasure', t.otherMeasure && storedOtherMeasure(t.otherMeasure)),
    ...(mix ? { mix } : {}),
    idcp: t.idcp.map(String),
    applicator,
    ...keep('infection'),
    ...keep('tj'),
    ...keep('efficacy'),
    ...keep('machine'),
    ...keep('manual'),
    ...keep('advisor'),
    ...given('phenology', t.phenology && storedCoded('TypePhenology', t.phenology)),
    ...keep('detail'),
    ...keep('batch'),
    ...given('soup', t.soup),
    ...keep('dt'),
    ...keep('mdt'),
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
