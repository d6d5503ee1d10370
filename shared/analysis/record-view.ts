import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { Analysis } from './analysis';
import { recordFieldsOf, StoredAnalysis } from './stored-record';

/** The record the API answers and the export maps: the request as registered (codes with the names the client gave). */
export function analysisView(input: {
  id: number;
  analysis: Analysis;
  exported: boolean;
  now: DateTime;
}): StoredAnalysis {
  return {
    id: `urn:ngsi-ld:AgriAnalysis:${input.id}`,
    ...recordFieldsOf(input.analysis),
    // As a treatment's: an amendment keeps the registration's dateCreated and sets dateModified (the records core).
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    exported: input.exported ? '1' : '0',
  };
}
