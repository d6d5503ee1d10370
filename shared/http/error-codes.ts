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
  // 404
  FARM_NOT_FOUND: [404, 'no farm with that REA and campaign year is accessible to the caller'],
  AGRIFARM_NOT_FOUND: [404, 'agrifarmId not found or not accessible'],
  CROP_NOT_FOUND: [404, 'the crop variety is not grown on the farm'],
  ENCLOSURE_NOT_FOUND: [404, 'the SIGPAC enclosure is not one of the farm where the crop is grown'],
  NOT_FOUND: [404, 'no such resource'],
  // 500
  INTERNAL: [500, 'an error of the gateway itself; retry with exponential backoff'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusOfCode(code: string): number {
  return (ERROR_CODES as Record<string, readonly [number, string]>)[code]?.[0] ?? 400;
}
