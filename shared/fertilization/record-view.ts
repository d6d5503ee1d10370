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
  exported: boolean;
  now: DateTime;
}): StoredFertilization {
  const request = recordFieldsOf(input.fertilization);
  return {
    id: `urn:ngsi-ld:AgriFertilize:${input.id}`,
    ...request,
    dateEnd: request.dateEnd ?? request.dateStart,
    // As a treatment's: an amendment keeps the registration's dateCreated and sets dateModified (the records core).
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    nitrogen: {
      kgPerHa: Math.round(input.nitrogenKgPerHa * 100) / 100,
      livestockManure: LIVESTOCK_MANURE.has(input.fertilization.material.code),
    },
    exported: input.exported ? '1' : '0',
  };
}
