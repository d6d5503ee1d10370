import { parseRetryAfter } from '../http-client/retry';
import { ErrorResponse, errorResponseSchema } from './iuws-protocol';

/** How an IUWS call fails (iuws-client.ts describes when each happens). */

export type IuwsErrorCode =
  /** SIEX_BASE_URL, the credentials or the certificate are missing or unusable. Not retryable. */
  | 'SIEX_NOT_CONFIGURED'
  /** SIEX refused the credentials or a fresh token (401, 403). Not retryable. */
  | 'SIEX_AUTH'
  /** SIEX refused the request (400, 404, 409, other 4xx): the document, the key or the request id. Not retryable. */
  | 'SIEX_REJECTED'
  /** 5xx, 429 or 408 on every try. Retryable. */
  | 'SIEX_UNAVAILABLE'
  /** No answer within SIEX_TIMEOUT_MS on the last try. Retryable. */
  | 'SIEX_TIMEOUT'
  /** Connection refused, reset, DNS, TLS... on the last try. Retryable. */
  | 'SIEX_UNREACHABLE'
  /** A 2xx answer that does not follow the protocol. Retryable (not retried at once: probably not transient). */
  | 'SIEX_PROTOCOL'
  /** The caller's AbortSignal fired. Retryable. */
  | 'SIEX_ABORTED';

const NOT_RETRYABLE: ReadonlySet<IuwsErrorCode> = new Set(['SIEX_NOT_CONFIGURED', 'SIEX_AUTH', 'SIEX_REJECTED']);

export class IuwsError extends Error {
  readonly retryable: boolean;
  readonly status?: number;
  readonly code: IuwsErrorCode;
  /** SIEX's error body, when it sent one (e.g. the schema violations of a refused document). */
  readonly details?: ErrorResponse;
  /** The server's Retry-After, in milliseconds. */
  readonly retryAfterMs?: number;
  /**
   * Whether SIEX may have received the request and acted on it: false only when it certainly did not (the connection
   * was refused, no token could be had, or SIEX answered that it did not take it: 408, 429, 503, 4xx).
   */
  readonly reachedSiex: boolean;

  /** `code` decides `retryable` unless given; with neither, the error is a retryable SIEX_UNAVAILABLE (test fakes). */
  constructor(
    message: string,
    options: {
      code?: IuwsErrorCode;
      retryable?: boolean;
      status?: number;
      details?: ErrorResponse;
      retryAfterMs?: number;
      cause?: unknown;
      reachedSiex?: boolean;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'IuwsError';
    this.code = options.code ?? (options.retryable === false ? 'SIEX_REJECTED' : 'SIEX_UNAVAILABLE');
    this.retryable = options.retryable ?? !NOT_RETRYABLE.has(this.code);
    if (options.status !== undefined) this.status = options.status;
    if (options.details !== undefined) this.details = options.details;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    this.reachedSiex = options.reachedSiex ?? true;
  }
}

/** One HTTP exchange with SIEX, its body read. */
export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeSiexError(body: ErrorResponse | undefined, text: string): string {
  if (!body) return text.trim().slice(0, 300) || '(empty body)';
  const errors = (body.errores ?? []).slice(0, 5).map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  const more = (body.errores?.length ?? 0) > 5 ? `; and ${body.errores!.length - 5} more` : '';
  return `${body.codigo}: ${body.descripcion}${errors.length ? ` (${errors.join('; ')}${more})` : ''}`;
}

/** The IuwsError for a non-2xx answer of `operation`. */
export function httpError(operation: string, res: Exchange, now: number): IuwsError {
  const parsed = errorResponseSchema.safeParse(parseJson(res.text));
  const details = parsed.success ? parsed.data : undefined;
  const what = `SIEX ${operation} answered ${res.status}: ${describeSiexError(details, res.text)}`;
  // An answer saying the request was not taken (busy, throttled, refused) means SIEX did not act on it; a 500, or a
  // 502/504 from something in between, may come after it did.
  const reachedSiex = res.status === 500 || res.status === 502 || res.status === 504;
  const common = { status: res.status, reachedSiex, ...(details ? { details } : {}) };
  if (res.status === 401 || res.status === 403) return new IuwsError(what, { code: 'SIEX_AUTH', ...common });
  if (res.status === 408 || res.status === 429 || (res.status >= 500 && res.status !== 501 && res.status !== 505)) {
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), now);
    return new IuwsError(what, {
      code: 'SIEX_UNAVAILABLE',
      ...common,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  return new IuwsError(what, { code: 'SIEX_REJECTED', ...common });
}
