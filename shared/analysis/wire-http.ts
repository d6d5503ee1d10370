import { MAX_IDCP_PER_RECORD } from '../api/record-fields';
import { CoreErrorCode } from '../domain/errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { KindHttp } from '../records/kind-entry';
import { analysisListQuerySchema, analysisPatchSchema, analysisRecordViewSchema, analysisRequestSchema } from './wire';
import { analysisExamples } from './wire-examples';

/** What an analysis's registration may answer beyond what every request may. */
const REGISTER_ERRORS: CoreErrorCode[] = [
  'AGRIFARM_NOT_FOUND',
  'IDCP_NOT_FOUND',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'NIF_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * The analyses' HTTP face (RD 1051/2022 arts. 5.b and 6): what the core's seven contracts take from the kind
 * (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const analysisHttp: KindHttp = {
  request: analysisRequestSchema,
  view: analysisRecordViewSchema,
  patch: analysisPatchSchema,
  listQuery: analysisListQuerySchema,
  descriptions: {
    register:
      'Validates a soil, water, crop or produce analysis (RD 1051/2022 arts. 5.b and 6: the soil data the ' +
      'fertilization plan rests on; RD 1311/2012 art. 16.3: residue analyses) and stores it: every code in force on ' +
      'the day of the sample in its SIEX catalogue (MATERIAL_ANALIZADO, TIPO_ANALISIS, SUST_ACTIVAS), the day in the ' +
      'campaign, not in the future, registered at most one month after it (RD 1051/2022, art. 4.1), the crop ' +
      `locations sampled (1 to ${MAX_IDCP_PER_RECORD}; none only for a water analysis, else 400 REQUIRED), soil ` +
      'parameters only on a soil analysis and in their ranges (pH 0 to 14, percentages up to 100, sand, silt and clay ' +
      "together up to 100), substances only on a residue analysis, and the laboratory's NIF valid (400 NIF_INVALID). " +
      'All violations are reported together; the status is 404 if any idcp is unknown, else 422 if any rule on the ' +
      'data fails, else 400. `Idempotency-Key` as on treatments.',
    list:
      'Newest day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the day of the sample), material ' +
      `(MATERIAL_ANALIZADO code), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
      'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
    amend:
      'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
      "registration request's fields, validated whole as a registration (every violation listed, nothing changed when " +
      'one fails), except that the month to register it in applies only to a new day. Answers 200 with the record in ' +
      'an array, `dateModified` set and the new `ETag`. `If-Match` with an older ETag is 412. An exported record goes ' +
      'back to `exported: "0"` and the next export sends it under the same IdAjenaAna. A record in an unfinished ' +
      'export is 409.',
    delete:
      'As a treatment: a record SIEX never received is deleted at once (204); one SIEX holds is deleted there first, ' +
      '202 with a job that sends it with `Borrar: true`, and leaves the list once SIEX accepted. Its history stays ' +
      'readable. A deleted record is 404; one in an unfinished export is 409.',
  },
  batchCounts: 'nothing of earlier ones: no analysis rule reads other records',
  errors: { register: REGISTER_ERRORS },
  examples: analysisExamples,
};
