import { z } from 'zod';
import {
  exportExample,
  farmLookupExample,
  jobResultExample,
  jobStatusExample,
  listExample,
  listIdcpExample,
  registerExample,
  registerBatchExample,
  amendExample,
  readExample,
  safeHarvestExample,
  deleteExample,
  historyExample,
  catalogProductsExample,
  catalogProductExample,
  siexCatalogueExample,
  applicatorCardExample,
} from '../api/examples';
import { recordVersionSchema } from '../api/history-schemas';
import { batchBodySchema, MAX_BATCH_ITEMS } from '../api/batch-schemas';
import { problemSchema } from './problem';
import { safeHarvestQuerySchema, safeHarvestSchema } from '../api/harvest-schemas';
import { Contract } from './contract';
import { ROUTES } from './routes';
import {
  agrifarmQuerySchema,
  farmLookupQuerySchema,
  farmSchema,
  idcpSetSchema,
  listIdcpBodySchema,
} from '../api/farm-schemas';
import {
  MAX_IDCP_PER_RECORD,
  listQuerySchema,
  phytoPatchSchema,
  phytoRecordViewSchema,
  phytoRequestSchema,
  recordParamsSchema,
  registerQuerySchema,
} from '../api/phyto-schemas';
import { PAGINATION_HEADERS } from './pagination';
import { CACHE_HEADERS } from './conditional';
import {
  applicatorCardSchema,
  applicatorQuerySchema,
  catalogueProductSchema,
  cropProductSchema,
  cropProductsQuerySchema,
  productParamsSchema,
  siexCatalogueParamsSchema,
  siexCatalogueQuerySchema,
  siexEntrySchema,
} from '../api/catalog-schemas';
import { MAX_PAGE_SIZE } from '../domain/pagination';
import {
  exportBodySchema,
  exportQuerySchema,
  exportResponseSchema,
  jobQuerySchema,
  jobResultSchema,
  jobSchema,
  MAX_EXPORT_RECORDS,
} from '../api/export-schemas';

/** What an answer that carries a record says of its version, for `If-Match`. */
const ETAG_HEADER = {
  ETag: {
    description: "the record's version, strong: send it back as If-Match to change this version only",
    type: 'string',
  },
} as const;

/** Every HTTP operation of the gateway, as data: routes, inputs, outputs and the error codes each may answer. */
export const farmLookup = {
  ...ROUTES.farmLookup,
  summary: 'Farm lookup by REA code and campaign year',
  description:
    'The first call of the flow: its `id` becomes `agrifarmId`. A farm the caller may not see is answered 404, exactly as an unknown one.',
  query: farmLookupQuerySchema,
  success: { status: 200, description: 'the farm campaign, as a one-item array', schema: z.array(farmSchema) },
  errors: ['REQUIRED', 'INVALID_VALUE', 'FARM_NOT_FOUND'],
  example: farmLookupExample,
} satisfies Contract;

export const listIdcp = {
  ...ROUTES.listIdcp,
  summary: 'Crop-location identifiers (idcp) for a crop variety and SIGPAC enclosures',
  description:
    'Returns one stable integer idcp per crop variety and enclosure: the same value on every call and in the farm lookup. ' +
    'The crop is matched on `typecrop.id` and `code` (names are informational); SIGPAC codes match numerically (`046` = `46`). ' +
    'Success is 200: nothing is created, the identifiers were assigned when the farm was loaded. ' +
    'Several enclosures may be sent at once; any enclosure where the crop is not grown on the farm makes the request 404, listing every such enclosure.',
  query: agrifarmQuerySchema,
  body: listIdcpBodySchema,
  success: { status: 200, description: 'the identifiers, in the order of the request', schema: idcpSetSchema },
  errors: ['AGRIFARM_NOT_FOUND', 'CROP_NOT_FOUND', 'ENCLOSURE_NOT_FOUND'],
  example: listIdcpExample,
} satisfies Contract;

export const registerPhyto = {
  ...ROUTES.registerPhytosanitary,
  summary: 'Register a phytosanitary application',
  description:
    'Validates the application against every rule (product in force, dose and unit, crop, pest, authorized months, ' +
    'applicator ROPO card and NIF, advisor card, crop locations, date window, minimum interval and maximum applications ' +
    'counting what is stored) and stores it. A ROPO card that is unknown, or whose holder is not the NIF given, is one ' +
    'answer (APPLICATOR_NOT_RECOGNISED, ADVISOR_NOT_RECOGNISED), byte for byte the same whatever the card: its state is told only ' +
    "with its holder's NIF. All violations are reported together; the status is 404 if any idcp is unknown, else 422 " +
    'if any product/dose/crop/time rule fails, else 400. Required: type, dateApplication, subtype, dose, measure, idcp ' +
    `(1 to ${MAX_IDCP_PER_RECORD} locations), applicator. Optional: the SIEX fields infection, tj, efficacy, machine, detail, batch, soup, dt/mdt, st/mst, ` +
    'surface, preventive, distributed, reviewed, pp, speed, recipe; export settles a record without infection, tj or efficacy ' +
    'as an error naming what is missing. A tank mix adds `mix`: up to 5 further products of the same pass, each judged ' +
    'against its own label as if applied alone (violations name it: `body.mix[1].dose`); a product twice is 400 ' +
    '`PRODUCT_REPEATED`, and more than 47 products × idcp 400 `MIX_TOO_LARGE`. Send an `Idempotency-Key` header to make retries safe: the same key and body ' +
    'return the first response and create nothing; the same key with another body is 422 (keys are remembered per client and holding).',
  query: registerQuerySchema,
  body: phytoRequestSchema,
  success: {
    status: 201,
    description: 'the created record, as a one-item array',
    schema: z.array(phytoRecordViewSchema),
    headers: ETAG_HEADER,
  },
  errors: [
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
    'IDEMPOTENCY_KEY_REUSED',
    'CONCURRENT_UPDATE',
  ],
  idempotent: true,
  example: registerExample,
} satisfies Contract;

/** A batch's answer: each item's outcome as a single registration would have answered it. */
const batchAnswerSchema = z
  .array(
    z.object({
      index: z.number().int().describe("the item's position in the request, from 0"),
      status: z
        .number()
        .int()
        .describe('what registering the item alone would have answered: 201, or the error status'),
      etag: z.string().optional().describe("the record's ETag, when it was stored"),
      body: z
        .union([z.array(phytoRecordViewSchema), problemSchema])
        .describe('the record as a one-item array (201), or the problem details'),
    }),
  )
  .meta({ id: 'AgriPhytosanitaryBatchResult' });

export const registerPhytoBatch = {
  ...ROUTES.registerPhytosanitaryBatch,
  summary: 'Register up to 100 phytosanitary applications in one request',
  description:
    `A JSON array of 1 to ${MAX_BATCH_ITEMS} registrations (within the 1 MB body limit), one request of the rate limit. ` +
    'Each item is judged exactly as if it were registered alone, in array order: a later item counts the ' +
    'applications of earlier ones in the interval and count rules. Each stored item is its own transaction; a refused ' +
    'item stores nothing and does not stop the others. Answers 200 with `[{ index, status, etag, body }]`: for each ' +
    'item the status and body a single registration would have answered (201 and the record as a one-item array, or ' +
    'the problem details with their status). An `Idempotency-Key` covers the whole batch: a retry with the same key ' +
    'and array stores nothing twice, even when the first attempt stopped half-way (each stored item answers as it ' +
    'did first; an item refused then is judged again); the same key with another array is 422 for the whole batch. ' +
    'A failure of the gateway itself (storage unavailable) answers the batch with its status: retry it under the same key.',
  query: registerQuerySchema,
  body: batchBodySchema,
  success: { status: 200, description: "each item's outcome, in request order", schema: batchAnswerSchema },
  errors: ['AGRIFARM_NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
  idempotent: true,
  example: registerBatchExample,
} satisfies Contract;

export const listPhyto = {
  ...ROUTES.listPhytosanitary,
  summary: 'List the phytosanitary applications of a farm campaign',
  description:
    'Newest application first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, Madrid days), product. Pagination: ' +
    `page (from 1) and page_size (1 to ${MAX_PAGE_SIZE}) together, or neither (then every matching record is returned). ` +
    'The body stays an array; X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers carry the paging.',
  query: listQuerySchema,
  success: {
    status: 200,
    description: 'the records',
    schema: z.array(phytoRecordViewSchema),
    headers: PAGINATION_HEADERS,
  },
  errors: ['AGRIFARM_NOT_FOUND', 'PAGINATION_PAIR', 'INVALID_DATE', 'INVALID_VALUE'],
  example: listExample,
} satisfies Contract;

export const readPhyto = {
  ...ROUTES.readPhytosanitary,
  summary: 'One phytosanitary application',
  description:
    'The record as registration and amendment answer it (in an array), with its `ETag` for `If-Match`. A record of ' +
    'another farm campaign or client, a deleted one and an unknown one are the same 404 RECORD_NOT_FOUND.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 200, description: 'the record', schema: z.array(phytoRecordViewSchema), headers: ETAG_HEADER },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND'],
  example: readExample,
} satisfies Contract;

export const amendPhyto = {
  ...ROUTES.amendPhytosanitary,
  summary: 'Correct or complete a phytosanitary application',
  description:
    'A JSON Merge Patch (RFC 7396, `application/merge-patch+json`; `application/json` is accepted too) of the ' +
    "registration request's fields. The merged request is validated whole, exactly as a registration (every " +
    'violation listed, nothing changed when one fails), except that the record does not count against itself in the ' +
    'count and interval rules, and the 7-day back-dating window applies only to a new application date: corrections ' +
    'are accepted all campaign long. Answers 200 with the record in an array, as on create, `dateModified` set and the new ' +
    '`ETag`. `If-Match` with an older ETag is 412. An exported record goes back to `exported: "0"`: the next export ' +
    'sends it under the same IdAjena, and SIEX replaces the earlier one. A record in an unfinished export is 409.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  body: phytoPatchSchema,
  bodyTypes: ['application/merge-patch+json', 'application/json'],
  success: {
    status: 200,
    description: 'the amended record',
    schema: z.array(phytoRecordViewSchema),
    headers: ETAG_HEADER,
  },
  errors: [
    ...registerPhyto.errors.filter((c) => c !== 'OUTSIDE_CAMPAIGN'),
    'OUTSIDE_CAMPAIGN',
    'RECORD_NOT_FOUND',
    'RECORD_IN_EXPORT',
    'PRECONDITION_FAILED',
  ],
  idempotent: true,
  ifMatch: true,
  example: amendExample,
} satisfies Contract;

export const deletePhyto = {
  ...ROUTES.deletePhytosanitary,
  summary: 'Delete a phytosanitary application',
  description:
    'A record SIEX never received is deleted at once: 204, and it leaves the list and the count and interval rules. ' +
    'A record SIEX holds (exported, or registered with exported=1) is deleted there first: 202 with a job, as the ' +
    'export answers, which sends it to SIEX with `Borrar: true`; follow it with jobstatus and jobresult, and the ' +
    'outcome e-mail comes as for exports. The record leaves the list and the rules when SIEX accepted the deletion. ' +
    'Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 204, description: 'deleted' },
  alsoSuccess: [{ status: 202, description: 'the deletion is being sent to SIEX', schema: exportResponseSchema }],
  errors: [
    'AGRIFARM_NOT_FOUND',
    'RECORD_NOT_FOUND',
    'RECORD_IN_EXPORT',
    'RECORD_OUTCOME_UNKNOWN',
    'PRECONDITION_FAILED',
    'QUEUE_UNAVAILABLE',
    'IDEMPOTENCY_KEY_REUSED',
    'CONCURRENT_UPDATE',
  ],
  idempotent: true,
  ifMatch: true,
  example: deleteExample,
} satisfies Contract;

export const phytoHistory = {
  ...ROUTES.phytosanitaryHistory,
  summary: 'Every version of a phytosanitary application',
  description:
    'Oldest first: when, which client, what happened (created, amended, deleted, exported, re-exported) and every ' +
    'field that changed with its old and new value. Kept after the record is deleted.',
  params: recordParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 200, description: "the record's versions", schema: z.array(recordVersionSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND', 'INVALID_VALUE', 'REQUIRED'],
  example: historyExample,
} satisfies Contract;

export const safeHarvestContract = {
  ...ROUTES.safeHarvest,
  summary: 'When each crop location of a farm may be harvested',
  description:
    'For a harvest crew before it starts: each crop location of the farm campaign with `earliestHarvest`, the last ' +
    "day on which any stored treatment's pre-harvest interval (seclimit, calendar days from the application day) " +
    'ends, `safeOn`, whether `date` (default today in Madrid) is on or after it, and `setBy`, the record, product, ' +
    'application day and interval that set it. A tank mix counts each product with its own interval; "NP" (no ' +
    "interval applies) and an interval no use states limit nothing. Only this campaign's records are counted.",
  query: safeHarvestQuerySchema,
  success: { status: 200, description: 'every crop location, by idcp', schema: z.array(safeHarvestSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'INVALID_DATE'],
  example: safeHarvestExample,
} satisfies Contract;

export const exportCue = {
  ...ROUTES.exportCue,
  summary: 'Export records to SIEX (asynchronous job)',
  description:
    'Body: the records to export, `[{ "id": "<record URN>" }]` (1 to ' +
    `${MAX_EXPORT_RECORDS}` +
    '). Every id must be a record of ' +
    'this farm (404 lists those that are not), not exported and not in an unfinished job (409 lists them). Answers 202 ' +
    'Accepted with the job id: follow it with jobstatus, read jobresult once it settles; an e-mail with the outcome ' +
    'goes to the client address when it finishes. A record without infection, tj or efficacy (or whose farm lacks a ' +
    '14-character REA code, a DGC on an enclosure) is not sent: the job settles it as an error MISSING_DATA naming ' +
    'what is missing. `Idempotency-Key` makes retries safe as on registration. With `pending=1` and an empty array ' +
    `the gateway chooses the records: every record of the farm campaign not yet exported (or amended since), not in an ` +
    `unfinished job, not of unknown outcome and with everything SIEX requires, oldest application first, up to ` +
    `${MAX_EXPORT_RECORDS}; the answer says how many (\`records\`) and whether more wait (\`morePending\`: export pending ` +
    'again once the job settles). None waiting is 409 NOTHING_TO_EXPORT.',
  query: exportQuerySchema,
  body: exportBodySchema,
  success: { status: 202, description: 'the job was created and queued', schema: exportResponseSchema },
  errors: [
    'AGRIFARM_NOT_FOUND',
    'RECORD_NOT_FOUND',
    'RECORD_ALREADY_EXPORTED',
    'RECORD_IN_EXPORT',
    'RECORD_OUTCOME_UNKNOWN',
    'NOTHING_TO_EXPORT',
    'QUEUE_UNAVAILABLE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
  ],
  idempotent: true,
  example: exportExample,
} satisfies Contract;

export const jobStatus = {
  ...ROUTES.jobStatus,
  summary: 'Status of an export job',
  description:
    'Statuses: 1 Iniciando, 2 EnProceso, 3 FinalizadoCompleto (every record accepted), 4 FinalizadoConErrores (some ' +
    'records rejected or not sendable), 5 Fallido (the job could not run; `error` says why). Transitions 1→2→3|4 and ' +
    "1|2→5. `percentage` is the share of records settled. Another client's job is 404.",
  query: jobQuerySchema,
  success: { status: 200, description: 'the job', schema: jobSchema },
  errors: ['INVALID_VALUE', 'REQUIRED', 'JOB_NOT_FOUND'],
  example: jobStatusExample,
} satisfies Contract;

export const jobResultContract = {
  ...ROUTES.jobResult,
  summary: 'Per-record outcome of a settled export job',
  description:
    '`data` lists accepted records (`result: "ok"`, `id`: the record id), `error` the others with a code and message. ' +
    'Before the job settles (status 1 or 2) the answer is 409 JOB_NOT_FINISHED with Retry-After.',
  query: jobQuerySchema,
  success: { status: 200, description: 'the outcome', schema: jobResultSchema },
  errors: ['INVALID_VALUE', 'REQUIRED', 'JOB_NOT_FOUND', 'JOB_NOT_FINISHED'],
  example: jobResultExample,
} satisfies Contract;

/** The answer to an `If-None-Match` that names the current ETag. */
const NOT_MODIFIED = {
  status: 304,
  description: 'not modified: the answer the caller holds (its ETag in If-None-Match) still holds; no body',
  headers: CACHE_HEADERS,
};

const CATALOGUE_CACHING =
  'The answer carries a strong `ETag` and `Cache-Control: private, max-age=...`; send the ETag back as ' +
  '`If-None-Match` to get 304 with no body while it still holds (it changes when an import changes the catalogue, ' +
  'and for answers about today, at midnight in Madrid).';

export const catalogProducts = {
  ...ROUTES.catalogProducts,
  summary: 'The products a registration for a crop on a day would accept',
  description:
    'Products of the official register in force on the day (grace period included) with a use for the crop that ' +
    'authorises the month of the day, by name; each with the uses that would accept the registration: a dose inside ' +
    "a use's range, in its unit, on that crop and day, passes the product, crop, month and dose rules. `pest` keeps " +
    'the uses that authorise that pest, or a group it belongs to; `q` searches the product and substance names. An ' +
    `unknown crop code is 400. Pagination as the record list: page and page_size (1 to ${MAX_PAGE_SIZE}) together, ` +
    'or neither (every product). ' +
    CATALOGUE_CACHING,
  query: cropProductsQuerySchema,
  success: {
    status: 200,
    description: 'the products, by name',
    schema: z.array(cropProductSchema),
    headers: { ...CACHE_HEADERS, ...PAGINATION_HEADERS },
  },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['REQUIRED', 'INVALID_VALUE', 'INVALID_DATE', 'PAGINATION_PAIR'],
  ifNoneMatch: true,
  example: catalogProductsExample,
} satisfies Contract;

export const catalogProduct = {
  ...ROUTES.catalogProduct,
  summary: 'One product of the official register, with every use',
  description:
    'Its register dates, whether a registration may use it today (and why not), the card level it requires, and ' +
    'every authorised use on every crop. The code as a registration gives it (`ES-11179`; `11179` and `ES11179` ' +
    'work too). An unknown code is 404. ' +
    CATALOGUE_CACHING,
  params: productParamsSchema,
  query: z.object({}),
  success: { status: 200, description: 'the product', schema: catalogueProductSchema, headers: CACHE_HEADERS },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['INVALID_VALUE', 'PRODUCT_CODE_NOT_FOUND'],
  ifNoneMatch: true,
  example: catalogProductExample,
} satisfies Contract;

export const siexCatalogue = {
  ...ROUTES.siexCatalogue,
  summary: 'A SIEX code catalogue',
  description:
    'Every code of the catalogue in code order, with its name, its hierarchy code and group where the catalogue has ' +
    'them (pests, diseases, weeds, growth regulators), and whether it is in force on the day: registrations take ' +
    'only codes in force on the application day. An unknown catalogue name is 404. Pagination as the record list. ' +
    CATALOGUE_CACHING,
  params: siexCatalogueParamsSchema,
  query: siexCatalogueQuerySchema,
  success: {
    status: 200,
    description: 'the codes',
    schema: z.array(siexEntrySchema),
    headers: { ...CACHE_HEADERS, ...PAGINATION_HEADERS },
  },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['INVALID_VALUE', 'INVALID_DATE', 'PAGINATION_PAIR', 'SIEX_CATALOGUE_NOT_FOUND'],
  ifNoneMatch: true,
  example: siexCatalogueExample,
} satisfies Contract;

export const applicatorCard = {
  ...ROUTES.applicatorCard,
  summary: "Check an applicator's ROPO card",
  description:
    "When the ROPO number and the holder's NIF both match one registered card: its levels (and the product levels " +
    'they cover), validity and whether it is suspended, so that an ERP can warn before a treatment is recorded. ' +
    'Otherwise 404, the same whichever of the two is wrong. Applicators are people: there is no listing, and no name ' +
    'or NIF in the answer. ' +
    CATALOGUE_CACHING,
  query: applicatorQuerySchema,
  success: { status: 200, description: 'the card', schema: applicatorCardSchema, headers: CACHE_HEADERS },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['REQUIRED', 'INVALID_VALUE', 'NIF_INVALID', 'APPLICATOR_NOT_FOUND'],
  ifNoneMatch: true,
  example: applicatorCardExample,
} satisfies Contract;

export const contracts: Contract[] = [
  farmLookup,
  listIdcp,
  registerPhyto,
  registerPhytoBatch,
  listPhyto,
  readPhyto,
  amendPhyto,
  deletePhyto,
  phytoHistory,
  safeHarvestContract,
  exportCue,
  jobStatus,
  jobResultContract,
  catalogProducts,
  catalogProduct,
  siexCatalogue,
  applicatorCard,
];
