import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { Fertilization } from './fertilization';
import { LIVESTOCK_MANURE } from './material-kinds';
import { recordFieldsOf, StoredFertilization } from './stored-record';

/**
 * The record the API answers and the export maps: the request as registered (codes with the names the client gave),
 * its last day always written, and the nitrogen it brings, as judged (hundredths of a kg: a figure for people; the
 * limit is kept in grams, manure-nitrogen.ts).
 */
export function fertilizationView(input: {
  id: number;
  fertilization: Fertilization;
  nitrogenKgPerHa: number;
  /** The commercial product judging resolved (rules.ts): the request's, or the one its product name gives. */
  detail?: { code: number; name: string } | null;
  exported: boolean;
  now: DateTime;
}): StoredFertilization {
  const f = input.fertilization;
  // A detail found by the product name is the record's as if the request had named it: a record read back and sent
  // again names it, and says the same.
  const found = f.material.detail === null ? (input.detail ?? null) : null;
  const request = recordFieldsOf(
    found
      ? {
          ...f,
          material: { ...f.material, detail: found.code },
          names: { ...f.names, detail: found.name },
        }
      : f,
  );
  return {
    id: `urn:ngsi-ld:AgriFertilize:${input.id}`,
    ...request,
    dateEnd: request.dateEnd ?? request.dateStart,
    // As a treatment's: an amendment keeps the registration's dateCreated and sets dateModified (the records core).
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    nitrogen: {
      kgPerHa: Math.round(input.nitrogenKgPerHa * 100) / 100,
      livestockManure: LIVESTOCK_MANURE.has(f.material.code),
    },
    exported: input.exported ? '1' : '0',
  };
}
