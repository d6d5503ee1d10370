import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { urn } from '../domain/urn';
import { Coded, ProductDose, Unit } from '../plant-protection/product-part';
import {
  applicationInstant,
  codedOf,
  doseOf,
  given,
  orNull,
  storedCoded,
  StoredCoded,
  storedDoseOf,
  StoredMeasure,
  storedMeasure,
  StoredProductDose,
  unitOf,
} from '../plant-protection/stored-part';

/**
 * The use of treated seed (RD 1311/2012 Anexo III, Parte I B.e: "si la siembra se realiza con semilla tratada, indicar
 * el producto"; CUE `UsoSemillaTratada`) as the domain reads it: where the seed was treated, for which crop, the lot
 * and how much seed, and the products it was treated with at their doses.
 */
export interface TreatedSeed {
  /** The day (and time) of the use, Madrid. */
  usedAt: DateTime;
  /** TIPO_TRATAMIENTO: 2 on the farm, 3 at a conditioning centre, 4 bought treated in Spain, 5 abroad. */
  treatment: Coded;
  /** The crop sown, a PRODUCTOS code (CUE `Producto`). */
  crop: Coded;
  lot: string | null;
  quantity: number;
  unit: Unit;
  /** The products the seed was treated with, in the request's order; empty: none named. */
  products: ProductDose[];
  efficacy: (Coded & { detail: string }) | null;
  detail: string | null;
}

/** TIPO_TRATAMIENTO codes of seed treated by or for the farm, whose products the record must name. */
export const TREATED_FOR_THE_FARM: readonly string[] = ['2', '3'];

/**
 * A treated seed's request as its record's pointer keeps it, format 1: the registration body as the API accepted it.
 * The kind's own type: a change of it is a new format, read beside this one.
 */
export interface StoredTreatedSeedRequest {
  type: 'AgriTreatedSeed';
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  date: string;
  treatment: StoredCoded<'TypeSeedTreatment'>;
  crop: StoredCoded<'TypeCrop'>;
  lot?: string;
  quantity: number;
  measure: StoredMeasure;
  products?: StoredProductDose[];
  efficacy?: StoredCoded<'TypeEfficacy'> & { detail: string };
  detail?: string;
}

/** A record as its row keeps it, format 1 (the first): the request as registered, with its id and stamps. */
export const TREATED_SEED_FORMAT = 1;

export interface StoredTreatedSeed extends StoredTreatedSeedRequest {
  id: string;
  dateCreated: string;
  dateModified: string;
  exported: '0' | '1';
}

/** A stored request (or a record, which holds one) as the use it stands for. */
export function treatedSeedOf(r: StoredTreatedSeedRequest): TreatedSeed {
  return {
    usedAt: applicationInstant(r.date, 'body.date'),
    treatment: codedOf(r.treatment),
    crop: codedOf(r.crop),
    lot: orNull(r.lot),
    quantity: r.quantity,
    unit: unitOf(r.measure),
    products: (r.products ?? []).map(doseOf),
    efficacy: r.efficacy ? { ...codedOf(r.efficacy), detail: r.efficacy.detail } : null,
    detail: orNull(r.detail),
  };
}

/** A use as its request is stored: every field it gave, none it did not. */
export function storedRequestOf(s: TreatedSeed): StoredTreatedSeedRequest {
  return {
    type: 'AgriTreatedSeed',
    date: formatDateTime(s.usedAt),
    treatment: storedCoded('TypeSeedTreatment', s.treatment),
    crop: storedCoded('TypeCrop', s.crop),
    ...given('lot', s.lot),
    quantity: s.quantity,
    measure: storedMeasure(s.unit),
    ...(s.products.length > 0 ? { products: s.products.map(storedDoseOf) } : {}),
    ...given('efficacy', s.efficacy && { ...storedCoded('TypeEfficacy', s.efficacy), detail: s.efficacy.detail }),
    ...given('detail', s.detail),
  };
}

/** The record stored for a use: the request as registered, its id and the core's stamps. */
export function treatedSeedRecord(input: {
  id: number;
  seed: TreatedSeed;
  exported: boolean;
  now: DateTime;
}): StoredTreatedSeed {
  return {
    id: urn('AgriTreatedSeed', input.id),
    ...storedRequestOf(input.seed),
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    exported: input.exported ? '1' : '0',
  };
}
