import { MAX_IDCP_PER_RECORD } from '../api/record-fields';
import { CoreErrorCode } from '../domain/errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { KindHttp } from '../records/kind-entry';
import { PLAN_BOUNDS } from './quantity-rules';
import { planListQuerySchema, planPatchSchema, planRecordViewSchema, planRequestSchema } from './wire';
import { planExamples } from './wire-examples';

/** What a plan's registration may answer beyond what every request may. */
const REGISTER_ERRORS: CoreErrorCode[] = [
  'AGRIFARM_NOT_FOUND',
  'IDCP_NOT_FOUND',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'QUANTITY_OUT_OF_BOUNDS',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * The plans' HTTP face (RD 1051/2022 arts. 5.a and 6): what the core's seven contracts take from the kind
 * (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const planHttp: KindHttp = {
  request: planRequestSchema,
  view: planRecordViewSchema,
  patch: planPatchSchema,
  listQuery: planListQuerySchema,
  descriptions: {
    register:
      "Validates a crop's fertilization plan (RD 1051/2022 art. 5.a: annexed to the notebook at the start of the " +
      "campaign; art. 6: the crop's needs in N, P2O5 and K2O, in kg/ha, for its yield target, in kg/ha, after its " +
      'previous crop) and stores it: the previous crop a PRODUCTOS code in force on the day, the day in the campaign, ' +
      'not in the future, registered at most one month after it (RD 1051/2022, art. 4.1), the crop locations (1 to ' +
      `${MAX_IDCP_PER_RECORD}) as for treatments, each need at most ${PLAN_BOUNDS.need} kg/ha and the yield target at ` +
      `most ${PLAN_BOUNDS.yieldTarget} kg/ha (422 QUANTITY_OUT_OF_BOUNDS). Exported as CUE PlanAbonado, one block ` +
      'per crop and variety. All violations are reported together; the status is 404 if any idcp is unknown, else ' +
      '422 if any rule on the data fails, else 400. `Idempotency-Key` as on treatments.',
    list:
      'Newest day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the day the plan was drawn up), ' +
      `previousCrop (PRODUCTOS code), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
      'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
    amend:
      'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
      "registration request's fields, validated whole as a registration (every violation listed, nothing changed when " +
      'one fails), except that the month to register it in applies only to a new day. Answers 200 with the record in ' +
      'an array, `dateModified` set and the new `ETag`. `If-Match` with an older ETag is 412. An exported record goes ' +
      'back to `exported: "0"` and the next export sends it under the same IdAjenaPlan. A record in an unfinished ' +
      'export is 409.',
    delete:
      'As a treatment: a record SIEX never received is deleted at once (204); one SIEX holds is deleted there first, ' +
      '202 with a job that sends it with `Borrar: true`, and leaves the list once SIEX accepted. Its history stays ' +
      'readable. A deleted record is 404; one in an unfinished export is 409.',
  },
  batchCounts: 'nothing of earlier ones: no plan rule reads other records',
  errors: { register: REGISTER_ERRORS },
  examples: planExamples,
};
