/**
 * The error codes of the core, with what each means: stable UPPER_SNAKE codes clients can switch on. A record kind
 * declares the codes only its rules raise in its own folder (`shared/<kind>/errors.ts`, through `kindErrors`), and the
 * app lays the core's and every kind's side by side for the edge (shared/app/error-codes.ts). Business code raises
 * `DomainError`s built from these codes and knows nothing of HTTP; the edge (shared/http/error-status.ts) gives each
 * core code its status, and the compiler checks that every one has one.
 */
export const CORE_ERROR_CODES = {
  // credentials
  MISSING_CREDENTIALS: 'Ocp-Apim-Sid-Key or Ocp-Apim-Subscription-Key header missing',
  INVALID_CREDENTIALS: 'the SID key or API key is not valid',
  EXPIRED_CREDENTIALS: 'the credentials have expired; renew them through support',
  // limits
  PAYLOAD_TOO_LARGE: 'request body over the size limit (1 MB)',
  RATE_LIMITED: 'more than 100 requests in 60 seconds; wait for Retry-After seconds',
  OVERLOADED: 'the instance answering is at capacity and did nothing; retry after Retry-After seconds',
  // request form
  UNSUPPORTED_MEDIA_TYPE: 'the body must be sent as application/json',
  UNSUPPORTED_CHARSET: 'the body must be UTF-8 (no other charset is accepted)',
  MALFORMED_JSON: 'the body is not valid JSON',
  JSON_TOO_DEEP: 'the body nests objects and arrays more than 64 levels deep',
  LONE_SURROGATE:
    'a string or member name holds a lone surrogate (\\uD800 to \\uDFFF outside a pair), which is no Unicode character',
  RESERVED_MEMBER_NAME: '__proto__, constructor or prototype as a member name, anywhere in the body',
  REQUIRED: 'a required field or parameter is missing',
  INVALID_VALUE: 'a field or parameter has the wrong type, form or value',
  UNKNOWN_FIELD: 'a field that the endpoint does not accept',
  PAGINATION_PAIR: 'page and page_size must be provided together',
  INVALID_DATE: 'a date is malformed or not a real date/time (use DD-MM-YYYY HH:mm:ss, Madrid time)',
  PRODUCT_REPEATED: 'a product appears twice in one record (as the main product or in its mix)',
  // not found or not accessible
  FARM_NOT_FOUND: 'no farm with that REA and campaign year is accessible to the caller',
  AGRIFARM_NOT_FOUND: 'agrifarmId not found or not accessible',
  CROP_NOT_FOUND: 'the crop variety is not grown on the farm',
  ENCLOSURE_NOT_FOUND: 'the SIGPAC enclosure is not one of the farm where the crop is grown',
  NOT_FOUND: 'no such resource',
  RECORD_NOT_FOUND: 'a record id is not a record of the farm',
  JOB_NOT_FOUND: 'no export job with that id is accessible to the caller',
  IDCP_NOT_FOUND: 'an idcp is not a crop location of the farm; regenerate it with listidcp',
  PRODUCT_CODE_NOT_FOUND: 'no product of the official register has that code',
  SIEX_CATALOGUE_NOT_FOUND: 'the gateway serves no SIEX catalogue of that name',
  APPLICATOR_NOT_FOUND: 'no registered ROPO card has both that number and that holder NIF',
  WEBHOOK_NOT_SET: 'the client has no webhook: set one with PUT /v1/webhooks',
  // applicator and advisor: ROPO card and NIF
  NIF_INVALID: "the applicator's or advisor's NIF/NIE is malformed or its control letter is wrong",
  APPLICATOR_NOT_RECOGNISED:
    "no registered ROPO card has both that number and that holder NIF; whether a card exists, and its state, are told only with its holder's NIF",
  ROPO_SUSPENDED: 'the ROPO card is suspended',
  ROPO_EXPIRED: 'the ROPO card was not valid on the application date',
  ROPO_LEVEL_INSUFFICIENT: 'the ROPO card level does not cover the product (cualificado covers basico)',
  ADVISOR_NOT_RECOGNISED:
    "the advisor's ROPO card is unknown, not its holder's with the advisor.nif given, or (without advisor.nif) not an advisor card in force on the application date: the same answer for each",
  ADVISOR_NOT_IN_FORCE:
    "the advisor's ROPO card (with its holder's NIF) was suspended or expired on the application date",
  ADVISOR_NOT_REGISTERED:
    "the advisor's ROPO card (with its holder's NIF) holds no advisor registration (level asesor)",
  MEASURE_MISMATCH: 'measure.symbol is not the symbol of measure.code',
  // state conflicts
  RECORD_ALREADY_EXPORTED: 'the record was already exported to SIEX',
  RECORD_IN_EXPORT: 'the record is in an export job that has not finished',
  RECORD_OUTCOME_UNKNOWN:
    'a failed job may have sent the record to SIEX; refused until the gateway learns the outcome or support releases it',
  NOTHING_TO_EXPORT:
    'pending=1 found no record to export: every record is exported, in a running job, of unknown outcome, or lacks what SIEX requires',
  RECORD_NOT_EXPORTABLE:
    'SIEX would refuse every record the export names as it stands (each listed with its exportBlockers): amend them first; no job was made',
  JOB_NOT_FINISHED: 'the job has not settled yet; poll jobstatus until status.id is 3, 4 or 5',
  PRECONDITION_FAILED: "If-Match does not name the record's current ETag: it changed since; read it again",
  // product, dose, crop, time and catalogue rules
  PRODUCT_NOT_FOUND: 'the product code is not in the official register',
  PRODUCT_NOT_IN_FORCE: 'the product was not authorized on the application date (expiry or last-use date passed)',
  PRODUCT_NOT_FOR_CROP: 'the product is not authorized on the crop of a location',
  PEST_NOT_AUTHORIZED: 'the product is not authorized against the infection given, on that crop',
  DOSE_ABOVE_MAX: 'the dose exceeds the maximum authorized dose',
  DOSE_BELOW_MIN: 'the dose is below the minimum authorized dose',
  DOSE_OUT_OF_RANGE: 'the dose is outside every authorized range',
  DOSE_UNIT_INCOMPATIBLE: 'the dose unit cannot be compared with the authorized unit',
  OUTSIDE_AUTHORIZED_PERIOD: 'the application month is outside the authorized months',
  OUTSIDE_CAMPAIGN: "the application date is not in the farm's campaign year (agrifarmId names one campaign)",
  DATE_IN_FUTURE: 'the application date is in the future',
  DATE_TOO_OLD:
    'the application date is further back than allowed: a treatment 7 days by default, a fertilization one month (RD 1051/2022, art. 4.1)',
  UNKNOWN_SIEX_CODE: 'a code is not in the SIEX catalogue, or not in force on the application date',
  ADVISOR_REQUIRED: "justification 5 (an advisor's recommendation) names no advisor: send advisor",
  TREATED_AREA_INVALID:
    'the treated area (st with mst, or surface) is not above 0 or exceeds the area of the record locations',
  EQUIPMENT_INSPECTION_EXPIRED:
    "a machine's last inspection is after the application or more than 3 years before it, or a machine never inspected was first registered 5 years or more before it (RD 1702/2011 art. 6)",
  EQUIPMENT_INSPECTION_UNKNOWN:
    'a powered machine (not hand-held or backpack) states neither its last inspection nor its first registration (RD 1311/2012 Anexo III, RD 1702/2011 art. 6)',
  // what the CUE can carry (FEGA's field descriptor)
  QUANTITY_OUT_OF_BOUNDS:
    "a quantity is more than the CUE field SIEX takes it in holds (FEGA's field descriptor); the message states the limit",
  // treatments of what is not a growing crop (produce, seed, stores and premises)
  INFECTION_KIND_NOT_IN_BLOCK:
    'the CUE block of this treatment has no place for a problem of that kind (a weed, a growth regulation)',
  TREATED_QUANTITY_UNIT:
    'what was treated is not measured as its CUE block takes it: produce and seed as a mass (kg, t), a store as a volume (m3, L)',
  // idempotency
  IDEMPOTENCY_KEY_REUSED:
    'the Idempotency-Key was used before with a different request, or by the same client on another operation',
  REQUEST_IN_PROGRESS: 'the same Idempotency-Key is in use by a request still running; retry after Retry-After',
  // the gateway itself
  INTERNAL: 'an error of the gateway itself; retry with exponential backoff',
  STORED_DATA_UNREADABLE:
    "a total the gateway keeps for the farm (a history row) cannot be read: the operators are alerted and rebuild it from the farm's records (npm run admin -- rebuild-history)",
  GATEWAY_TIMEOUT:
    'API Management gave up waiting for the service (30 s); retry with the same Idempotency-Key, the call may have been done',
  QUEUE_UNAVAILABLE: 'the export could not be queued; nothing was started, retry',
  STORAGE_UNAVAILABLE: 'storage briefly unavailable; retry after Retry-After',
  WEBHOOKS_UNAVAILABLE: 'this gateway signs no webhooks (no WEBHOOK_SIGNING_KEY): ask its operators',
  CONCURRENT_UPDATE: 'too many concurrent registrations on the same crop locations; retry after Retry-After',
  // reading back what SIEX holds (issue 38, item 10)
  FARM_WITHOUT_REA_CODE:
    'the farm has no 14-character REA code (codigoRea) in the back office, so SIEX cannot be asked what it holds of it',
  SIEX_READ_FAILED: 'SIEX could not be read now (unreachable, refusing, or not configured); retry after Retry-After',
} as const satisfies Record<string, string>;

export type CoreErrorCode = keyof typeof CORE_ERROR_CODES;

/**
 * A code a record kind declares: what it means, and the status the edge answers it with (the kind's own word on its
 * rule, as shared/http/error-status.ts is the core's). Only the statuses of a rule of the request's content.
 */
interface KindError {
  readonly status: 400 | 422;
  readonly text: string;
}

/** A kind's codes: `shared/<kind>/errors.ts`, one table a kind. */
export type KindErrorTable = Readonly<Record<string, KindError>>;

/**
 * Any error code: the core's, or a kind's. The domain holds no kind's names; a kind's rules are checked against their
 * own codes by the compiler through `violationOf`, and membership at run time through the codes kinds declared.
 */
export type ErrorCode = CoreErrorCode | Uppercase<string>;

/** Every code is UPPER_SNAKE and at most this long, so that an answer listing violations has a known largest size. */
export const MAX_ERROR_CODE_LENGTH = 32;
const CODE_FORM = new RegExp(`^[A-Z][A-Z0-9_]{0,${MAX_ERROR_CODE_LENGTH - 1}}$`);

/** The codes kinds declared, as their modules loaded: a kind's rule can raise a code only by loading its table. */
const declared = new Map<string, KindError>();

/**
 * Declares a kind's codes (its `errors.ts` calls it once) and answers them as given, typed. A code of the core, or one
 * another table declared differently, is refused: a code means one thing, whoever raises it.
 */
export function kindErrors<const T extends KindErrorTable>(table: T): T {
  for (const [code, error] of Object.entries(table)) {
    const before = declared.get(code);
    if (
      !CODE_FORM.test(code) ||
      Object.hasOwn(CORE_ERROR_CODES, code) ||
      (before && (before.status !== error.status || before.text !== error.text))
    )
      throw new Error(
        `error code ${code} is not UPPER_SNAKE of at most ${MAX_ERROR_CODE_LENGTH}, or is declared twice`,
      );
    declared.set(code, error);
  }
  return table;
}

/** A kind's code as it declared it; undefined for a core code or one no kind declared. */
export function kindError(code: string): KindError | undefined {
  return declared.get(code);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (Object.hasOwn(CORE_ERROR_CODES, value) || declared.has(value));
}

/** One thing wrong with a request: a stable code, where (`body.dose`, `query.year`, `header.X`, or empty), and why. */
export interface Violation {
  code: ErrorCode;
  path: string;
  message: string;
}

export function violation(code: CoreErrorCode, path: string, message: string): Violation {
  return { code, path, message };
}

/**
 * `violation` for a kind's rules: a code of the core or of the kind's own table, nothing else (the compiler checks a
 * kind's rules against its own codes).
 */
export function violationOf<T extends KindErrorTable>(
  _codes: T,
): (code: CoreErrorCode | (keyof T & string), path: string, message: string) => Violation {
  return (code, path, message) => ({ code: code as ErrorCode, path, message });
}

/**
 * A request the gateway refuses or cannot serve now, with every violation found. `retryAfterSeconds` says when a
 * retry may succeed (a rate limit, a job still running, storage busy).
 */
export class DomainError extends Error {
  constructor(
    readonly detail: string,
    readonly violations: readonly Violation[],
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}
