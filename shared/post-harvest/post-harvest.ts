import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { urn } from '../domain/urn';
import { PartTreatment } from '../plant-protection/part-kind';
import { Unit } from '../plant-protection/product-part';
import {
  applicationInstant,
  partOf,
  StoredMeasure,
  storedMeasure,
  StoredPart,
  storedPartOf,
  unitOf,
} from '../plant-protection/stored-part';

/**
 * A treatment of harvested produce (RD 1311/2012 Anexo III, Parte I B.b: the "producto vegetal" treated; CUE
 * `TratamientosPostCosecha`) as the domain reads it: the product part of every treatment, and the produce treated
 * and how much of it.
 */
export interface PostHarvestTreatment extends PartTreatment {
  produce: Produce;
}

/** The produce treated: a PROD_VEGETAL `Id` (CUE `ProductoVegetal`), the name the request gave, its quantity. */
interface Produce {
  id: number;
  name: string;
  quantity: number;
  unit: Unit;
}

/**
 * A post-harvest treatment's request as its record's pointer keeps it, format 1: the registration body as the API
 * accepted it (the product part as every treatment kind stores it, shared/plant-protection/stored-part.ts). The kind's
 * own type: a change of it is a new format, read beside this one.
 */
export interface StoredPostHarvestRequest extends StoredPart {
  type: 'AgriPostHarvestTreatment';
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  dateApplication: string;
  plantProduct: { type: 'TypePlantProduct'; id: string; name: string; quantity: number; measure: StoredMeasure };
}

/** A record as its row keeps it, format 1 (the first): the request as registered, with its id and stamps. */
export const POST_HARVEST_FORMAT = 1;

export interface StoredPostHarvest extends StoredPostHarvestRequest {
  id: string;
  dateCreated: string;
  dateModified: string;
  exported: '0' | '1';
}

/** A stored request (or a record, which holds one) as the treatment it stands for. */
export function postHarvestOf(r: StoredPostHarvestRequest): PostHarvestTreatment {
  return {
    ...partOf(r),
    appliedAt: applicationInstant(r.dateApplication),
    produce: {
      id: Number(r.plantProduct.id),
      name: r.plantProduct.name,
      quantity: r.plantProduct.quantity,
      unit: unitOf(r.plantProduct.measure),
    },
  };
}

/** A treatment as its request is stored. */
export function storedRequestOf(t: PostHarvestTreatment): StoredPostHarvestRequest {
  const { produce } = t;
  return {
    type: 'AgriPostHarvestTreatment',
    dateApplication: formatDateTime(t.appliedAt),
    plantProduct: {
      type: 'TypePlantProduct',
      id: String(produce.id),
      name: produce.name,
      quantity: produce.quantity,
      measure: storedMeasure(produce.unit),
    },
    ...storedPartOf(t),
  };
}

/** The record stored for a treatment: the request as registered, its id and the core's stamps. */
export function postHarvestRecord(input: {
  id: number;
  treatment: PostHarvestTreatment;
  exported: boolean;
  now: DateTime;
}): StoredPostHarvest {
  return {
    id: urn('AgriPostHarvestTreatment', input.id),
    ...storedRequestOf(input.treatment),
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    exported: input.exported ? '1' : '0',
  };
}
