import { Irrigation } from './irrigation';

/**
 * An irrigation's request as its record's pointer keeps it, format 1: the domain value as it was when irrigations
 * began (issue 35). The kind's own type, so a change of the domain value is not a change of what is stored unnoticed:
 * the two assignments below stop compiling, and the new domain value is written as a new format, read beside this one.
 */
export interface StoredIrrigationRequest {
  start: string;
  end: string;
  idcp: number[];
  system: number;
  quantity: number;
  unit: { code: number; symbol: string; name: string };
  waterOrigins: number[];
  energy: number | null;
  meter: string | null;
  goodPractices: number[];
  detail: string | null;
  names: Record<string, string>;
}

/** An irrigation as its pointer keeps it: format 1 is the domain value field for field. */
export function storedRequestOf(i: Irrigation): StoredIrrigationRequest {
  return i;
}

/** A pointer's request (format 1, the only one) as the irrigation it stands for. */
export function irrigationFromStored(stored: StoredIrrigationRequest): Irrigation {
  return stored;
}
