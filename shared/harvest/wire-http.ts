import { MAX_IDCP_PER_RECORD } from '../api/record-fields';
import { CoreErrorCode } from '../domain/errors';
import { HarvestErrorCode } from './errors';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import { KindHttp } from '../records/kind-entry';
import { harvestListQuerySchema, harvestPatchSchema, harvestRecordViewSchema, harvestRequestSchema } from './wire';
import { harvestExamples } from './wire-examples';

/** What a harvest's registration may answer beyond what every request may. */
const REGISTER_ERRORS: (CoreErrorCode | HarvestErrorCode)[] = [
  'AGRIFARM_NOT_FOUND',
  'IDCP_NOT_FOUND',
  'DATE_IN_FUTURE',
  'DATE_TOO_OLD',
  'OUTSIDE_CAMPAIGN',
  'UNKNOWN_SIEX_CODE',
  'MEASURE_MISMATCH',
  'HARVEST_QUANTITY_UNIT',
  'HARVEST_PRODUCT_NOT_OF_CROP',
  'PRE_HARVEST_INTERVAL_NOT_MET',
  'IDEMPOTENCY_KEY_REUSED',
  'CONCURRENT_UPDATE',
];

/**
 * The harvests' HTTP face (CUE `Cosecha`): what the core's seven contracts take from the kind
 * (shared/http/contracts/record-*.ts), the rest being what every kind answers alike.
 */
export const harvestHttp: KindHttp = {
  request: harvestRequestSchema,
  view: harvestRecordViewSchema,
  patch: harvestPatchSchema,
  listQuery: harvestListQuerySchema,
  descriptions: {
    register:
      'Validates a harvest (or a mowing: `cut`) against every rule and stores it: every code in force on the first ' +
      'day in its SIEX catalogue (the product in PROD_VEGETAL, purposes in DEST_COSECHA, residue destinations in ' +
      'DEST_RES_VEG, units in UNIDADES_MEDIDA, the machine in TIPO_MAQUINA_UNE and TIPENERGIA), the dates in the ' +
      "campaign, not in the future, and registered within the operators' MAX_BACKDATE_DAYS, the crop locations (1 to " +
      `${MAX_IDCP_PER_RECORD}). The quantity is an amount (a mass, a volume or units: 422 HARVEST_QUANTITY_UNIT ` +
      'otherwise), and the product must be produce of the crop of every location, as PROD_VEGETAL pairs them (422 ' +
      'HARVEST_PRODUCT_NOT_OF_CROP at body.product). On each location, every treatment of its SIGPAC enclosure and ' +
      'crop, this campaign or the one before, applied by the last day, whose product states a pre-harvest interval ' +
      '(not "NP") holds the harvest until the application day plus that many calendar days (Madrid): a harvest ' +
      'starting before is 422 PRE_HARVEST_INTERVAL_NOT_MET at body.idcp[i], naming the product, the application day and ' +
      'the first safe day (Reg. (CE) 1107/2009 art. 31; RD 1311/2012 Anexo III). All violations are reported together; the status is 404 if any ' +
      'idcp is unknown, else 422 if any rule on the data fails, else 400. `Idempotency-Key` as on treatments.',
    list:
      'Newest first day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the first day), product ' +
      `(PROD_VEGETAL Id), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
      'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
    amend:
      'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
      "registration request's fields, validated whole as a registration (every violation listed, nothing changed when " +
      "one fails), except that the operators' window to register in applies only to a new first day. Answers 200 " +
      'with the record in an array, `dateModified` set and the new `ETag`. `If-Match` with an older ETag is 412. An ' +
      'exported record goes back to `exported: "0"` and the next export sends it under the same IdAjenaCosecha. A ' +
      'record in an unfinished export is 409.',
    delete:
      'As a treatment: a record SIEX never received is deleted at once (204); one SIEX holds is deleted there first, ' +
      '202 with a job that sends it with `Borrar: true`, and leaves the list once SIEX accepted. Its history stays ' +
      'readable. A deleted record is 404; one in an unfinished export is 409.',
  },
  batchCounts: 'nothing of earlier ones: harvests are judged each on its own',
  errors: { register: REGISTER_ERRORS },
  examples: harvestExamples,
};
