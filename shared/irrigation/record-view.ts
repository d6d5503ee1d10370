import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { Irrigation } from './irrigation';
import { recordFieldsOf, StoredIrrigation } from './stored-record';
import { Water } from './water-quantity';

/** m3 to the litre: the water kept as judged, without binary noise. */
const M3_DECIMALS = 1000;

/**
 * The record the API answers and the export maps: the request as registered (codes with the names the client gave)
 * and its water in m3 as judged, so the export needs no catalogue to send it.
 */
export function irrigationView(input: {
  id: number;
  irrigation: Irrigation;
  water: Water;
  exported: boolean;
  now: DateTime;
}): StoredIrrigation {
  return {
    id: `urn:ngsi-ld:AgriIrrigation:${input.id}`,
    ...recordFieldsOf(input.irrigation),
    // As a treatment's: an amendment keeps the registration's dateCreated and sets dateModified (the records core).
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    water: { m3: Math.round(input.water.m3 * M3_DECIMALS) / M3_DECIMALS, perHa: input.water.perHa },
    exported: input.exported ? '1' : '0',
  };
}
