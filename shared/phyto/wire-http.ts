import { MAX_IDCP_PER_RECORD } from '../api/record-fields';
import { CoreErrorCode } from '../domain/errors';
import { PhytoErrorCode } from './errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { KindHttp } from '../records/kind-entry';
import { phytoRequestSchema } from './wire';
import { phytoExamples } from './wire-examples';
import { listQuerySchema, phytoPatchSchema, phytoRecordViewSchema } from './wire-record';

/** What a treatment's registration may answer beyond what every request may. */
const REGISTER_ERRORS: (CoreErrorCode | PhytoErrorCode)[] = [
  'AGRIFARM_NOT_FOUND',
  'IDCP_NOT_FOUND',
  'INVALID_DATE',
  'PRODUCT_REPEATED',
  'MIX_TOO_LARGE',
  'NIF_INVALID',
  'APPLICATOR_NOT_RECOGNISED',
  'ROPO_SUSPENDED',
  'ROPO_EXPIRED',
  'ROPO_LEVEL_INSUFFICIENT',
  'ADVISOR_NOT_RECOGNISED',
  'ADVISOR_NOT_IN_FORCE',
  'ADVISOR_NOT_REGISTERED',
  'MEASURE_MISMATCH',
  'PRODUCT_NOT_FOUND',
  'PRODUCT_NOT_IN_FORCE',
  'PRODUCT_NOT_FOR_CROP',
  'PEST_NOT_AUTHORIZED',
  'DOSE_ABOVE_MAX',
  'DOSE_BELOW_MIN',
  'DOSE_OUT_OF_RANGE',
  'DOSE_UNIT_INCOMPATIBLE',
  'OUTSIDE_AUTHORIZED_PERIOD',
  'MIN_INTERVAL',
  'MAX_APPLICATIONS',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'ADVISOR_REQUIRED',
  'EQUIPMENT_INSPECTION_EXPIRED',
  'EQUIPMENT_INSPECTION_UNKNOWN',
  'PRODUCT_AND_MEASURE',
  'MEASURE_QUANTITY_UNIT',
  'MDF_REGISTRATION_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * The treatments' HTTP face: what the core's seven contracts take from the kind (shared/http/contracts/record-*.ts),
 * the rest being what every kind answers alike.
 */
export const phytoHttp: KindHttp = {
  request: phytoRequestSchema,
  view: phytoRecordViewSchema,
  patch: phytoPatchSchema,
  listQuery: listQuerySchema,
  descriptions: {
    register:
      'Validates the application against every rule (product in force, dose and unit, crop, pest, authorized months, ' +
      'applicator ROPO card and NIF, advisor card, crop locations, date window, minimum interval and maximum applications ' +
      'counting what is stored) and stores it. A ROPO card that is unknown, or whose holder is not the NIF given, is one ' +
      'answer (APPLICATOR_NOT_RECOGNISED, ADVISOR_NOT_RECOGNISED), byte for byte the same whatever the card: its state is told only ' +
      "with its holder's NIF. All violations are reported together; the status is 404 if any idcp is unknown, else 422 " +
      'if any product/dose/crop/time rule fails, else 400. Required: type, dateApplication, subtype, dose, measure (or, ' +
      'for a non-chemical measure, `otherMeasure` instead of them: 422 `PRODUCT_AND_MEASURE` beside a product), idcp ' +
      `(1 to ${MAX_IDCP_PER_RECORD} locations), applicator. Optional: the SIEX fields infection, tj, efficacy, machine, detail, batch, soup, dt/mdt, st/mst, ` +
      'surface, preventive, distributed, reviewed, pp, speed, recipe; export settles a record without infection, tj or efficacy ' +
      'as an error naming what is missing. A tank mix adds `mix`: up to 5 further products of the same pass, each judged ' +
      'against its own label as if applied alone (violations name it: `body.mix[1].dose`); a product twice is 400 ' +
      '`PRODUCT_REPEATED`, and more than 47 products × idcp 400 `MIX_TOO_LARGE`. Send an `Idempotency-Key` header to make retries safe: the same key and body ' +
      'return the first response and create nothing; the same key with another body is 422 (keys are remembered per client and holding).',
    list:
      'Newest application first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, Madrid days), product. Pagination: ' +
      `page (from 1) and page_size (1 to ${MAX_PAGE_SIZE}) together, or neither (then every matching record is returned). ` +
      'The body stays an array; X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers carry the paging.',
    amend:
      'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
      "registration request's fields. The merged request is validated whole, exactly as a registration (every " +
      'violation listed, nothing changed when one fails), except that the record does not count against itself in the ' +
      'count and interval rules, and the 7-day back-dating window applies only to a new application date: corrections ' +
      'are accepted all campaign long. Answers 200 with the record in an array, as on create, `dateModified` set and the new ' +
      '`ETag`. `If-Match` with an older ETag is 412. An exported record goes back to `exported: "0"`: the next export ' +
      'sends it under the same IdAjena, and SIEX replaces the earlier one. A record in an unfinished export is 409.',
    delete:
      'A record SIEX never received is deleted at once: 204, and it leaves the list and the count and interval rules. ' +
      'A record SIEX holds (exported, or registered with exported=1) is deleted there first: 202 with a job, as the ' +
      'export answers, which sends it to SIEX with `Borrar: true`; follow it with jobstatus and jobresult, and the ' +
      'outcome e-mail comes as for exports. The record leaves the list and the rules when SIEX accepted the deletion. ' +
      'Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  },
  batchCounts: 'the applications of earlier ones in the interval and count rules',
  errors: {
    register: REGISTER_ERRORS,
    // An amendment answers what a registration does; the document has always listed OUTSIDE_CAMPAIGN last of them.
    amend: [...REGISTER_ERRORS.filter((c) => c !== 'OUTSIDE_CAMPAIGN'), 'OUTSIDE_CAMPAIGN'],
  },
  examples: phytoExamples,
};
