/**
 * Every error code the gateway emits, with its status and meaning. The OpenAPI document lists this table, so a
 * client can rely on it; a code used in the code base but missing here fails a unit test.
 */
export const ERROR_CODES = {
  // 401
  MISSING_CREDENTIALS: [401, 'Ocp-Apim-Sid-Key or Ocp-Apim-Subscription-Key header missing'],
  INVALID_CREDENTIALS: [401, 'the SID key or API key is not valid'],
  EXPIRED_CREDENTIALS: [401, 'the credentials have expired; renew them through support'],
  // 413, 429
  PAYLOAD_TOO_LARGE: [413, 'request body over the size limit (1 MB)'],
  RATE_LIMITED: [429, 'more than 100 requests in 60 seconds; wait for Retry-After seconds'],
  // 400: request structure
  UNSUPPORTED_MEDIA_TYPE: [400, 'the body must be sent as application/json'],
  MALFORMED_JSON: [400, 'the body is not valid JSON'],
  REQUIRED: [400, 'a required field or parameter is missing'],
  INVALID_VALUE: [400, 'a field or parameter has the wrong type, form or value'],
  UNKNOWN_FIELD: [400, 'a field that the endpoint does not accept'],
  PAGINATION_PAIR: [400, 'page and page_size must be provided together'],
  INVALID_DATE: [400, 'a date is malformed or not a real date/time (use DD-MM-YYYY HH:mm:ss, Madrid time)'],
  // 404
  FARM_NOT_FOUND: [404, 'no farm with that REA and campaign year is accessible to the caller'],
  AGRIFARM_NOT_FOUND: [404, 'agrifarmId not found or not accessible'],
  CROP_NOT_FOUND: [404, 'the crop variety is not grown on the farm'],
  ENCLOSURE_NOT_FOUND: [404, 'the SIGPAC enclosure is not one of the farm where the crop is grown'],
  NOT_FOUND: [404, 'no such resource'],
  RECORD_NOT_FOUND: [404, 'a record id is not a record of the farm'],
  JOB_NOT_FOUND: [404, 'no export job with that id is accessible to the caller'],
  IDCP_NOT_FOUND: [404, 'an idcp is not a crop location of the farm; regenerate it with listidcp'],
  // 400: applicator (the spec answers ROPO problems with 400)
  NIF_INVALID: [400, 'the applicator NIF/NIE is malformed or its control letter is wrong'],
  NIF_MISMATCH: [400, 'the NIF is not the holder of the ROPO card'],
  ROPO_NOT_FOUND: [400, 'the ROPO number is not a registered applicator'],
  ROPO_SUSPENDED: [400, 'the ROPO card is suspended'],
  ROPO_EXPIRED: [400, 'the ROPO card was not valid on the application date'],
  ROPO_LEVEL_INSUFFICIENT: [400, 'the ROPO card level does not cover the product (cualificado covers basico)'],
  MEASURE_MISMATCH: [400, 'measure.symbol is not the symbol of measure.code'],
  // 409
  RECORD_ALREADY_EXPORTED: [409, 'the record was already exported to SIEX'],
  RECORD_IN_EXPORT: [409, 'the record is in an export job that has not finished'],
  RECORD_OUTCOME_UNKNOWN: [409, 'a failed job sent the record to SIEX without learning the outcome; support must check SIEX before it is exported again'],
  JOB_NOT_FINISHED: [409, 'the job has not settled yet; poll jobstatus until status.id is 3, 4 or 5'],
  // 422: product, dose, crop, time and catalogue rules
  PRODUCT_NOT_FOUND: [422, 'the product code is not in the official register'],
  PRODUCT_NOT_IN_FORCE: [422, 'the product was not authorized on the application date (expiry or last-use date passed)'],
  PRODUCT_NOT_FOR_CROP: [422, 'the product is not authorized on the crop of a location'],
  PEST_NOT_AUTHORIZED: [422, 'the product is not authorized against the infection given, on that crop'],
  DOSE_ABOVE_MAX: [422, 'the dose exceeds the maximum authorized dose'],
  DOSE_BELOW_MIN: [422, 'the dose is below the minimum authorized dose'],
  DOSE_OUT_OF_RANGE: [422, 'the dose is outside every authorized range'],
  DOSE_UNIT_INCOMPATIBLE: [422, 'the dose unit cannot be compared with the authorized unit'],
  OUTSIDE_AUTHORIZED_PERIOD: [422, 'the application month is outside the authorized months'],
  MIN_INTERVAL: [422, 'too close to another application of the product on the same crop location'],
  MAX_APPLICATIONS: [422, 'the maximum number of applications per campaign on a crop location is reached'],
  DATE_IN_FUTURE: [422, 'the application date is in the future'],
  DATE_TOO_OLD: [422, 'the application date is further back than allowed (7 days by default)'],
  UNKNOWN_SIEX_CODE: [422, 'a code is not in the SIEX catalogue, or not in force on the application date'],
  IDEMPOTENCY_KEY_REUSED: [422, 'the Idempotency-Key was used before with a different request'],
  // 500
  INTERNAL: [500, 'an error of the gateway itself; retry with exponential backoff'],
  QUEUE_UNAVAILABLE: [503, 'the export could not be queued; nothing was started, retry'],
  CONCURRENT_UPDATE: [503, 'too many concurrent registrations on the same crop locations; retry after Retry-After'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusOfCode(code: string): number {
  return (ERROR_CODES as Record<string, readonly [number, string]>)[code]?.[0] ?? 400;
}
