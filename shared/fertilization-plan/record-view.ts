import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { FertilizationPlan } from './plan';
import { recordFieldsOf, StoredPlan } from './stored-record';

/** The record the API answers and the export maps: the request as registered (codes with the names the client gave). */
export function planView(input: { id: number; plan: FertilizationPlan; exported: boolean; now: DateTime }): StoredPlan {
  return {
    id: `urn:ngsi-ld:AgriFertilizationPlan:${input.id}`,
    ...recordFieldsOf(input.plan),
    // As a treatment's: an amendment keeps the registration's dateCreated and sets dateModified (the records core).
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    exported: input.exported ? '1' : '0',
  };
}
