import { MAX_IDCP_PER_RECORD } from '../api/record-fields';
import { CoreErrorCode } from '../domain/errors';
import { IrrigationErrorCode } from './errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { KindHttp } from '../records/kind-entry';
import {
  irrigationListQuerySchema,
  irrigationPatchSchema,
  irrigationRecordViewSchema,
  irrigationRequestSchema,
} from './wire';
import { irrigationExamples } from './wire-examples';

/** What an irrigation's registration may answer beyond what every request may. */
const REGISTER_ERRORS: (CoreErrorCode | IrrigationErrorCode)[] = [
  'AGRIFARM_NOT_FOUND',
  'IDCP_NOT_FOUND',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'MEASURE_MISMATCH',
  'IRRIGATION_UNIT',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * The irrigations' HTTP face (RD 1051/2022 art. 5): what the core's seven contracts take from the kind
 * (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const irrigationHttp: KindHttp = {
  request: irrigationRequestSchema,
  view: irrigationRecordViewSchema,
  patch: irrigationPatchSchema,
  listQuery: irrigationListQuerySchema,
  descriptions: {
    register:
      'Validates an irrigation (RD 1051/2022, art. 5: its dates and water go in the notebook) against every rule and ' +
      'stores it: every code in force on the first day in its SIEX catalogue (the system in SIST_RIEGO, the origins ' +
      'in ORIGEN_AGUA_RIEGO, the energy in TIPENERGIA, good practices of the "Riego" scope of ' +
      'BUENAS_PRACTICAS_AMBITOS only), the water a volume (m3, L) or a volume per area (m3/ha, L/m2), else 422 ' +
      'IRRIGATION_UNIT; dateEnd not before dateStart, the days in the campaign, not in the future, and registered ' +
      'at most one month after the first day (RD 1051/2022, art. 4.1), the crop locations (1 to ' +
      `${MAX_IDCP_PER_RECORD}) as for treatments. The record states its water in m3 (\`water\`), of the whole or per ` +
      'hectare; SIEX is sent a total in m3 per crop and variety (per hectare times their area, or the whole shared ' +
      'by area). All violations are reported together; the status is 404 if any idcp is unknown, else 422 if any ' +
      'rule on the data fails, else 400. `Idempotency-Key` as on treatments: the same key and body return the first ' +
      'answer and store nothing; the same key with another body is 422.',
    list:
      'Newest first day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the first day), system ' +
      `(SIST_RIEGO code), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
      'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
    amend:
      'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
      "registration request's fields, validated whole as a registration (every violation listed, nothing changed when " +
      'one fails), except that the month to register it in (RD 1051/2022, art. 4.1) applies only to a new first day. ' +
      'Answers 200 with the record in an array, `dateModified` set and the new `ETag`. `If-Match` with an older ETag ' +
      'is 412. An exported record goes back to `exported: "0"` and the next export sends it under the same ' +
      'IdAjenaRiego. A record in an unfinished export is 409.',
    delete:
      'As a treatment: a record SIEX never received is deleted at once (204); one SIEX holds is deleted there first, ' +
      '202 with a job that sends it with `Borrar: true`, and leaves the list once SIEX accepted. Its history stays ' +
      'readable. A deleted record is 404; one in an unfinished export is 409.',
  },
  batchCounts: 'nothing of earlier ones: no irrigation rule reads other records',
  errors: { register: REGISTER_ERRORS },
  examples: irrigationExamples,
};
