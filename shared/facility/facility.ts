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
 * A treatment of stores and premises (RD 1311/2012 Anexo III, Parte I B.b "local o medio de transporte tratado" and
 * B.f, its volume in m3; CUE `TratamientosEdifInstalaciones`) as the domain reads it: the product part of every
 * treatment, and the buildings treated.
 */
export interface FacilityTreatment extends PartTreatment {
  facilities: Facility[];
}

/**
 * A building or installation treated: its class (EDIFICACIONES_INSTALACIONES `Código SIEX`), the name the request
 * gave it, its identifier in the REA (CUE `IdEdificacion`, number(10)), and the volume treated.
 */
interface Facility {
  class: number;
  name: string;
  reaId: number;
  volume: number;
  unit: Unit;
}

/** A store treatment's request as its record's pointer keeps it, format 1: the registration body as accepted. */
export interface StoredFacilityRequest extends StoredPart {
  type: 'AgriFacilityTreatment';
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  dateApplication: string;
  facilities: {
    type: 'TypeFacility';
    id: string;
    name: string;
    reaId: number;
    volume: number;
    measure: StoredMeasure;
  }[];
}

/** A record as its row keeps it, format 1 (the first): the request as registered, with its id and stamps. */
export const FACILITY_FORMAT = 1;

export interface StoredFacilityTreatment extends StoredFacilityRequest {
  id: string;
  dateCreated: string;
  dateModified: string;
  exported: '0' | '1';
}

/** A stored request (or a record, which holds one) as the treatment it stands for. */
export function facilityOf(r: StoredFacilityRequest): FacilityTreatment {
  return {
    ...partOf(r),
    appliedAt: applicationInstant(r.dateApplication),
    facilities: r.facilities.map((f) => ({
      class: Number(f.id),
      name: f.name,
      reaId: f.reaId,
      volume: f.volume,
      unit: unitOf(f.measure),
    })),
  };
}

/** A treatment as its request is stored. */
export function storedRequestOf(t: FacilityTreatment): StoredFacilityRequest {
  return {
    type: 'AgriFacilityTreatment',
    dateApplication: formatDateTime(t.appliedAt),
    facilities: t.facilities.map((f) => ({
      type: 'TypeFacility',
      id: String(f.class),
      name: f.name,
      reaId: f.reaId,
      volume: f.volume,
      measure: storedMeasure(f.unit),
    })),
    ...storedPartOf(t),
  };
}

/** The record stored for a treatment: the request as registered, its id and the core's stamps. */
export function facilityRecord(input: {
  id: number;
  treatment: FacilityTreatment;
  exported: boolean;
  now: DateTime;
}): StoredFacilityTreatment {
  return {
    id: urn('AgriFacilityTreatment', input.id),
    ...storedRequestOf(input.treatment),
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    exported: input.exported ? '1' : '0',
  };
}
