import { MAX_IDCP_PER_RECORD } from '../api/record-fields';
import { CoreErrorCode } from '../domain/errors';
import { FertilizationErrorCode } from './errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { KindHttp } from '../records/kind-entry';
import {
  fertilizationListQuerySchema,
  fertilizationPatchSchema,
  fertilizeRecordViewSchema,
  fertilizeRequestSchema,
} from './wire';
import { fertilizationExamples } from './wire-examples';

/** What a fertilization's registration may answer beyond what every request may. */
const REGISTER_ERRORS: (CoreErrorCode | FertilizationErrorCode)[] = [
  'AGRIFARM_NOT_FOUND',
  'IDCP_NOT_FOUND',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'MEASURE_MISMATCH',
  'TREATED_AREA_INVALID',
  'MATERIAL_DATA_MISSING',
  'FERTILIZER_DOSE_UNIT',
  'NITROGEN_LIMIT_EXCEEDED',
  'QUANTITY_OUT_OF_BOUNDS',
  'STORED_DATA_UNREADABLE',
  'SLUDGE_FLAG_MISMATCH',
  'DETAIL_NOT_OF_MATERIAL',
  'SLURRY_METHOD_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * The fertilizations' HTTP face (RD 1051/2022): what the core's seven contracts take from the kind
 * (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const fertilizationHttp: KindHttp = {
  request: fertilizeRequestSchema,
  view: fertilizeRecordViewSchema,
  patch: fertilizationPatchSchema,
  listQuery: fertilizationListQuerySchema,
  descriptions: {
    register:
      'Validates the application of a fertilizer, manure or amendment against every rule and stores it: every code ' +
      'in force on the first day in its SIEX catalogue (good practices of the "Fertilización" scope only), the data ' +
      'MAT_FERTI\'s "Campos a registrar" asks of the material (its nutrients, its supplier by REGA, NIMA or NIF as the ' +
      'material takes, the manure treatment, the product name, heavy metals), the dates in the campaign, not in the ' +
      'future, and registered at most one month after the first day (RD 1051/2022, art. 4.1: the notebook takes an ' +
      "operation within a month, so the treatments' MAX_BACKDATE_DAYS does not apply), the crop locations (1 to " +
      `${MAX_IDCP_PER_RECORD}) and the fertilized area as for treatments. The record states the kg of N per ha it ` +
      'applies (dose × N total, through the density for a volume). On an enclosure the back office marks nitrate-vulnerable, livestock manure may bring at most 170 kg ' +
      'N/ha a campaign (Directive 91/676/EEC, RD 47/2022): a record that would pass it, counting every other record of ' +
      'the campaign whatever its date, is 422 NITROGEN_LIMIT_EXCEEDED naming the total and the limit. Slurry spread by ' +
      'a broadcast method needs a good practice RD 1051/2022 accepts (bands, injection, burial within 4 hours): 422 ' +
      'SLURRY_METHOD_NOT_ALLOWED otherwise. All violations are reported together; the status is 404 if any idcp is ' +
      'unknown, else 422 if any rule on the data fails, else 400. `Idempotency-Key` as on treatments: the same key and ' +
      'body return the first answer and store nothing; the same key with another body is 422.',
    list:
      'Newest first day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the first day), material ' +
      `(MAT_FERTI code), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
      'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
    amend:
      'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
      "registration request's fields, validated whole as a registration (every violation listed, nothing changed when " +
      'one fails), except that the record does not count against itself in the nitrogen limit and the month to register ' +
      'it in (RD 1051/2022, art. 4.1) applies only to a new first day. Answers 200 with the record in an array, ' +
      '`dateModified` set and the new `ETag`. `If-Match` with an older ETag is 412. An exported record goes back to ' +
      '`exported: "0"` and the next ' +
      'export sends it under the same IdAjenaFerti. A record in an unfinished export is 409.',
    delete:
      'As a treatment: a record SIEX never received is deleted at once (204) and its nitrogen leaves the limit; one ' +
      'SIEX holds is deleted there first, 202 with a job that sends it with `Borrar: true`, and leaves the list and the ' +
      'limit once SIEX accepted. Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  },
  batchCounts: 'the nitrogen of earlier ones against the manure limit of their enclosures',
  errors: { register: REGISTER_ERRORS },
  examples: fertilizationExamples,
};
