import { CoreErrorCode, ErrorCode, kindError } from '../domain/errors';

/**
 * The HTTP status of every code of the core. `satisfies Record<CoreErrorCode, number>` makes a code without a status
 * (or a status for a code that does not exist) a compile error. A kind's codes carry their statuses in its own table
 * (`shared/<kind>/errors.ts`).
 */
export const HTTP_STATUS = {
  // 401
  MISSING_CREDENTIALS: 401,
  INVALID_CREDENTIALS: 401,
  EXPIRED_CREDENTIALS: 401,
  // 413, 415, 429
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_CHARSET: 415,
  RATE_LIMITED: 429,
  // 400: request structure
  UNSUPPORTED_MEDIA_TYPE: 400,
  MALFORMED_JSON: 400,
  JSON_TOO_DEEP: 400,
  LONE_SURROGATE: 400,
  RESERVED_MEMBER_NAME: 400,
  REQUIRED: 400,
  INVALID_VALUE: 400,
  UNKNOWN_FIELD: 400,
  PAGINATION_PAIR: 400,
  INVALID_DATE: 400,
  PRODUCT_REPEATED: 400,
  // 404
  FARM_NOT_FOUND: 404,
  AGRIFARM_NOT_FOUND: 404,
  CROP_NOT_FOUND: 404,
  ENCLOSURE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  WEBHOOK_NOT_SET: 404,
  RECORD_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  IDCP_NOT_FOUND: 404,
  PRODUCT_CODE_NOT_FOUND: 404,
  SIEX_CATALOGUE_NOT_FOUND: 404,
  APPLICATOR_NOT_FOUND: 404,
  // 400: applicator and advisor (the spec answers ROPO problems with 400)
  NIF_INVALID: 400,
  APPLICATOR_NOT_RECOGNISED: 400,
  ROPO_SUSPENDED: 400,
  ROPO_EXPIRED: 400,
  ROPO_LEVEL_INSUFFICIENT: 400,
  ADVISOR_NOT_RECOGNISED: 400,
  ADVISOR_NOT_IN_FORCE: 400,
  ADVISOR_NOT_REGISTERED: 400,
  MEASURE_MISMATCH: 400,
  // 409
  RECORD_ALREADY_EXPORTED: 409,
  RECORD_IN_EXPORT: 409,
  NOTHING_TO_EXPORT: 409,
  RECORD_OUTCOME_UNKNOWN: 409,
  JOB_NOT_FINISHED: 409,
  REQUEST_IN_PROGRESS: 409,
  PRECONDITION_FAILED: 412,
  // 422: product, dose, crop, time and catalogue rules
  RECORD_NOT_EXPORTABLE: 422,
  PRODUCT_NOT_FOUND: 422,
  PRODUCT_NOT_IN_FORCE: 422,
  PRODUCT_NOT_FOR_CROP: 422,
  PEST_NOT_AUTHORIZED: 422,
  DOSE_ABOVE_MAX: 422,
  DOSE_BELOW_MIN: 422,
  DOSE_OUT_OF_RANGE: 422,
  DOSE_UNIT_INCOMPATIBLE: 422,
  OUTSIDE_AUTHORIZED_PERIOD: 422,
  DATE_IN_FUTURE: 422,
  DATE_TOO_OLD: 422,
  OUTSIDE_CAMPAIGN: 422,
  UNKNOWN_SIEX_CODE: 422,
  TREATED_AREA_INVALID: 422,
  ADVISOR_REQUIRED: 422,
  EQUIPMENT_INSPECTION_EXPIRED: 422,
  EQUIPMENT_INSPECTION_UNKNOWN: 422,
  QUANTITY_OUT_OF_BOUNDS: 422,
  INFECTION_KIND_NOT_IN_BLOCK: 422,
  TREATED_QUANTITY_UNIT: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  // 500, 503
  INTERNAL: 500,
  GATEWAY_TIMEOUT: 504,
  QUEUE_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  OVERLOADED: 503,
  WEBHOOKS_UNAVAILABLE: 503,
  STORED_DATA_UNREADABLE: 503,
  CONCURRENT_UPDATE: 503,
  FARM_WITHOUT_REA_CODE: 422,
  SIEX_READ_FAILED: 503,
} as const satisfies Record<CoreErrorCode, number>;

/**
 * The status of an answer listing these violations. The spec's Errors section ranks an unknown crop location (404)
 * over business rules (422) over format and applicator problems (400); failures of the gateway itself and refusals
 * before any rule ran (keys, limits) come first.
 */
const PRECEDENCE = [500, 503, 401, 413, 415, 429, 404, 412, 409, 422, 400];

/**
 * The status of one code: the core's table, else the status its kind declared. A code neither knows is the gateway's
 * own mistake (a rule raising a code no table declares), answered as one.
 */
function errorStatus(code: ErrorCode): number {
  return Object.hasOwn(HTTP_STATUS, code) ? HTTP_STATUS[code as CoreErrorCode] : (kindError(code)?.status ?? 500);
}

export function statusOf(violations: readonly { code: ErrorCode }[]): number {
  const statuses = new Set<number>(violations.map((v) => errorStatus(v.code)));
  return PRECEDENCE.find((s) => statuses.has(s)) ?? 400;
}
