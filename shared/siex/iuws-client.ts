import { Settings } from '../config/settings';
import { clientCertificateFetch, parseClientCertificate } from '../http-client/client-certificate';
import { RetryAbortedError, RetryPolicy, parseRetryAfter, withRetry } from '../http-client/retry';
import {
  ErrorResponse,
  IDEMPOTENCY_HEADER,
  IUWS_PATHS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  errorResponseSchema,
  statusResponseSchema,
  submitResponseSchema,
  tokenResponseSchema,
} from './iuws-protocol';

/**
 * Client of SIEX's "Interfaz Único Común" web service (IUWS; FEGA, Anexo VI).
 *
 * The protocol, as the gateway and the local simulator (local/siex-simulator) speak it. FEGA's wire details were not
 * available to us; this is the contract both sides implement, and the one place to change if the real one differs.
 * Every body is JSON in UTF-8; the base URL is SIEX_BASE_URL (paths are appended to it, so it may carry a prefix).
 *
 *   POST {base}/comunicacion                     credentials for a bearer token
 *     body   { "usuario": SIEX_USERNAME, "contrasena": SIEX_PASSWORD }
 *     200    { "token": "<opaque>", "expiraEn": <seconds of validity> }
 *     401    credentials refused
 *
 *   POST {base}/crear                            submit one CUE document (schema 3.11.4), processed asynchronously
 *     headers Authorization: Bearer <token>, Content-Type: application/json,
 *             X-Idempotency-Key: <1..200 chars, stable per job batch>
 *     body   { "CUADERNO": [ ... ] }
 *     202    { "idPeticion": "<request id>" }     a repeat with the same key answers the same id, with no new submission
 *     400    { "codigo": "ESQUEMA_INVALIDO", "descripcion": "...", "errores": [ ...schema violations ] }
 *     409    the key was used before with a different document
 *
 *   GET {base}/comprobarEstado/{idPeticion}     outcome of a submission
 *     headers Authorization: Bearer <token>
 *     200    { "estado": "PENDIENTE" | "EN_PROCESO" | "FINALIZADO",
 *              "resultados": [ { "IdAjenaTratamFito": 123, "resultado": "OK" | "ERROR",
 *                                "errores": [ { "codigo": "...", "descripcion": "..." } ] } ] }   (filled when FINALIZADO)
 *     404    unknown request id
 *
 *   Errors answer { "codigo", "descripcion" }. 401 on crear / comprobarEstado means the token expired or was revoked.
 *   429 and 503 may carry Retry-After (seconds or an HTTP date).
 *
 * In production the TLS connection presents SIEX's client certificate (SIEX_CLIENT_CERT: base64 PFX, as Key Vault
 * hands out an imported certificate, or PEM certificate + private key), through undici (see client-certificate.ts).
 *
 * Behaviour:
 * - The token is cached until 60 s (or half its lifetime, if shorter) before it expires; concurrent callers share one
 *   `comunicacion` call. A 401 on crear / comprobarEstado drops the token and repeats the call once with a fresh one;
 *   a second 401 is an error (not retryable).
 * - Every HTTP exchange is abandoned after SIEX_TIMEOUT_MS. Time-outs, network errors, 408, 429 and 5xx (but 501 and
 *   505) are retried up to SIEX_MAX_ATTEMPTS tries in all, waiting a random time in [0, min(20 s, SIEX_RETRY_BASE_MS *
 *   2^(n-1))) before retry n, or what Retry-After says (up to 30 s; a longer Retry-After ends the retries at once).
 *   Other 4xx are not retried. `crear` is safe to repeat because every try carries the same idempotency key.
 * - Failures are IuwsError: `retryable` says whether trying again later (a queue redelivery) may help, `status` is
 *   SIEX's HTTP status when there was one, `code` names the kind (IUWS_ERROR_CODES), and `reachedSiex` whether any
 *   try may have reached SIEX (false only when none can have: refused connections, no token, answers saying the
 *   request was not taken), so that a caller knows when a crear may be in SIEX although it failed.
 */

export interface IuwsResult {
  externalId: number;
  ok: boolean;
  errors: { code: string; message: string }[];
}

export interface IuwsStatus {
  state: 'pending' | 'done';
  results: IuwsResult[];
}

export interface IuwsClient {
  /**
   * Checks that SIEX can be used at all (configured, credentials accepted: a token in hand), so that a caller learns
   * it before it writes anything down ahead of a submission.
   */
  ready(signal?: AbortSignal): Promise<void>;
  /**
   * Submits one CUE document ({ CUADERNO: [...] }, schema 3.11.4) and returns SIEX's request id. `idempotencyKey` is
   * stable per job batch: a repeat with the same key must not create a second submission.
   */
  submit(document: unknown, idempotencyKey: string, signal?: AbortSignal): Promise<string>;
  status(requestId: string, signal?: AbortSignal): Promise<IuwsStatus>;
}

export const IUWS_ERROR_CODES = {
  /** SIEX_BASE_URL, the credentials or the certificate are missing or unusable. Not retryable. */
  SIEX_NOT_CONFIGURED: 'SIEX_NOT_CONFIGURED',
  /** SIEX refused the credentials or a fresh token (401, 403). Not retryable. */
  SIEX_AUTH: 'SIEX_AUTH',
  /** SIEX refused the request (400, 404, 409, other 4xx): the document, the key or the request id. Not retryable. */
  SIEX_REJECTED: 'SIEX_REJECTED',
  /** 5xx, 429 or 408 on every try. Retryable. */
  SIEX_UNAVAILABLE: 'SIEX_UNAVAILABLE',
  /** No answer within SIEX_TIMEOUT_MS on the last try. Retryable. */
  SIEX_TIMEOUT: 'SIEX_TIMEOUT',
  /** Connection refused, reset, DNS, TLS... on the last try. Retryable. */
  SIEX_UNREACHABLE: 'SIEX_UNREACHABLE',
  /** A 2xx answer that does not follow the protocol. Retryable (not retried at once: probably not transient). */
  SIEX_PROTOCOL: 'SIEX_PROTOCOL',
  /** The caller's AbortSignal fired. Retryable. */
  SIEX_ABORTED: 'SIEX_ABORTED',
} as const;
export type IuwsErrorCode = keyof typeof IUWS_ERROR_CODES;

/** Network failures that happen before a connection exists: the request cannot have reached SIEX. */
const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** Worth retrying at once, within one call, rather than only later by the caller. */
const TRANSIENT: ReadonlySet<IuwsErrorCode> = new Set(['SIEX_UNAVAILABLE', 'SIEX_TIMEOUT', 'SIEX_UNREACHABLE']);
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

export interface IuwsDeps {
  /** Replaces the HTTP stack (tests); otherwise global fetch, or undici's with an Agent when a client certificate is set. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Clock for the token's expiry (tests). */
  now?: () => number;
  /** Told before each retry (for logs). */
  onRetry?: (info: { operation: string; attempt: number; error: unknown; delayMs: number }) => void;
}

/** The longest computed backoff delay, and the longest Retry-After waited for within one call. */
export const IUWS_MAX_DELAY_MS = 20_000;
export const IUWS_MAX_RETRY_AFTER_MS = 30_000;
/** A token is renewed this long before it expires (or at half its lifetime, if that is shorter). */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

/** What Key Vault leaves in a setting whose reference it could not resolve (missing secret, missing role). */
const UNRESOLVED_KEY_VAULT_REFERENCE = /^@Microsoft\.KeyVault\(/i;

interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

function configurationProblem(s: Settings): string | undefined {
  if (!s.SIEX_BASE_URL) return 'SIEX is not configured: set SIEX_BASE_URL, SIEX_USERNAME and SIEX_PASSWORD';
  for (const key of ['SIEX_USERNAME', 'SIEX_PASSWORD', 'SIEX_CLIENT_CERT'] as const) {
    const value = s[key];
    if (key !== 'SIEX_CLIENT_CERT' && !value) return `SIEX is not configured: ${key} is missing`;
    if (value && UNRESOLVED_KEY_VAULT_REFERENCE.test(value)) {
      return `${key} is a Key Vault reference the platform could not resolve (${value}): is the secret in the vault?`;
    }
  }
  return undefined;
}

function describeSiexError(body: ErrorResponse | undefined, text: string): string {
  if (!body) return text.trim().slice(0, 300) || '(empty body)';
  const errors = (body.errores ?? []).slice(0, 5).map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  const more = (body.errores?.length ?? 0) > 5 ? `; and ${body.errores!.length - 5} more` : '';
  return `${body.codigo}: ${body.descripcion}${errors.length ? ` (${errors.join('; ')}${more})` : ''}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The IuwsError for a non-2xx answer of `operation`. */
function httpError(operation: string, res: Exchange, now: number): IuwsError {
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

export function createIuwsClient(settings: Settings, deps: IuwsDeps = {}): IuwsClient {
  const now = deps.now ?? Date.now;
  const timeoutMs = settings.SIEX_TIMEOUT_MS;
  const policy: RetryPolicy = {
    maxAttempts: settings.SIEX_MAX_ATTEMPTS,
    baseDelayMs: settings.SIEX_RETRY_BASE_MS,
    maxDelayMs: IUWS_MAX_DELAY_MS,
    maxRetryAfterMs: IUWS_MAX_RETRY_AFTER_MS,
  };
  let problem = configurationProblem(settings);
  let fetchImpl: typeof fetch = deps.fetch ?? fetch;
  if (!problem && settings.SIEX_CLIENT_CERT && !deps.fetch) {
    if (!/^https:/i.test(settings.SIEX_BASE_URL ?? '')) {
      problem = 'SIEX_CLIENT_CERT is set, so SIEX_BASE_URL must be https';
    } else {
      try {
        fetchImpl = clientCertificateFetch(parseClientCertificate(settings.SIEX_CLIENT_CERT));
      } catch (e) {
        problem = `SIEX_CLIENT_CERT is unusable: ${(e as Error).message}`;
      }
    }
  }
  const base = (settings.SIEX_BASE_URL ?? '').replace(/\/+$/, '');

  /** One HTTP exchange under the time-out; transport failures become IuwsError. */
  async function exchange(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<Exchange> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const res = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          'user-agent': 'siex-gateway',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body } : {}),
        signal: combined,
      });
      return { status: res.status, headers: res.headers, text: await res.text() };
    } catch (e) {
      if (e instanceof IuwsError) throw e;
      if (signal?.aborted)
        throw new IuwsError(`SIEX ${method} ${path}: aborted by the caller`, { code: 'SIEX_ABORTED', cause: e });
      if (timeout.aborted)
        throw new IuwsError(`SIEX ${method} ${path}: no answer within ${timeoutMs} ms`, {
          code: 'SIEX_TIMEOUT',
          cause: e,
        });
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (e as Error).message;
      throw new IuwsError(`SIEX ${method} ${path}: cannot reach ${base} (${reason})`, {
        code: 'SIEX_UNREACHABLE',
        cause: e,
        // Only a connection never made proves the request was not sent; a reset may come after SIEX took it.
        reachedSiex: !NEVER_CONNECTED.has(cause?.code ?? ''),
      });
    }
  }

  // The token: one at a time, shared by concurrent callers.
  let cached: { token: string; refreshAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function requestToken(): Promise<string> {
    const body = JSON.stringify({ usuario: settings.SIEX_USERNAME, contrasena: settings.SIEX_PASSWORD });
    // Not tied to one caller's signal: other callers may be waiting for the same token.
    const res = await exchange('POST', IUWS_PATHS.token, {}, body);
    if (res.status === 401 || res.status === 403) {
      throw new IuwsError(`SIEX refused the credentials of SIEX_USERNAME (comunicacion answered ${res.status})`, {
        code: 'SIEX_AUTH',
        status: res.status,
      });
    }
    if (res.status < 200 || res.status > 299) throw httpError('comunicacion', res, now());
    const parsed = tokenResponseSchema.safeParse(parseJson(res.text));
    if (!parsed.success)
      throw new IuwsError(`SIEX comunicacion answered ${res.status} without a token`, {
        code: 'SIEX_PROTOCOL',
        status: res.status,
      });
    const lifetimeMs = parsed.data.expiraEn * 1000;
    cached = {
      token: parsed.data.token,
      refreshAt: now() + lifetimeMs - Math.min(TOKEN_REFRESH_MARGIN_MS, lifetimeMs / 2),
    };
    return parsed.data.token;
  }

  function token(): Promise<string> {
    if (cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
    pending ??= requestToken().finally(() => (pending = undefined));
    return pending;
  }

  /** One try of an authorised call, with the one token refresh a 401 earns. Non-2xx answers throw. */
  /** A token for a call: without one, the call itself was never sent, whatever happened to the token's request. */
  async function unsentWithout(get: () => Promise<string>): Promise<string> {
    try {
      return await get();
    } catch (e) {
      if (!(e instanceof IuwsError)) throw e;
      throw new IuwsError(e.message, {
        code: e.code,
        reachedSiex: false,
        cause: e,
        ...(e.status !== undefined ? { status: e.status } : {}),
        ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
      });
    }
  }

  async function authorised(
    operation: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<Exchange> {
    let current = await unsentWithout(token);
    let res = await exchange(method, path, { ...headers, authorization: `Bearer ${current}` }, body, signal);
    if (res.status === 401) {
      if (cached?.token === current) cached = undefined;
      current = await unsentWithout(token);
      res = await exchange(method, path, { ...headers, authorization: `Bearer ${current}` }, body, signal);
      if (res.status === 401) {
        throw new IuwsError(`SIEX ${operation} refused a freshly issued token (401 twice)`, {
          code: 'SIEX_AUTH',
          status: 401,
        });
      }
    }
    if (res.status < 200 || res.status > 299) throw httpError(operation, res, now());
    return res;
  }

  /** `attempt` with the retries transient failures earn; the last failure is rethrown, saying how many tries it took. */
  async function retrying<T>(operation: string, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (problem) throw new IuwsError(problem, { code: 'SIEX_NOT_CONFIGURED', reachedSiex: false });
    let tries = 0;
    // Whether any try may have reached SIEX: what the caller must assume, whatever the last try says.
    let reached = false;
    try {
      return await withRetry(
        () => {
          tries++;
          return attempt().catch((e: unknown) => {
            if (!(e instanceof IuwsError) || e.reachedSiex) reached = true;
            throw e;
          });
        },
        (e) =>
          e instanceof IuwsError && TRANSIENT.has(e.code)
            ? { retry: true, ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}) }
            : { retry: false },
        policy,
        {
          ...(deps.sleep ? { sleep: (ms: number) => deps.sleep!(ms) } : {}),
          ...(deps.random ? { random: deps.random } : {}),
          onRetry: (info) => deps.onRetry?.({ operation, ...info }),
        },
        signal,
      );
    } catch (e) {
      if (e instanceof RetryAbortedError)
        throw new IuwsError(`SIEX ${operation}: aborted by the caller`, {
          code: 'SIEX_ABORTED',
          cause: e.cause,
          reachedSiex: tries > 0,
        });
      const gaveUp = e instanceof IuwsError && TRANSIENT.has(e.code) && tries > 1;
      if (e instanceof IuwsError && (gaveUp || (reached && !e.reachedSiex))) {
        throw new IuwsError(gaveUp ? `${e.message} (gave up after ${tries} tries)` : e.message, {
          code: e.code,
          ...(e.status !== undefined ? { status: e.status } : {}),
          ...(e.details ? { details: e.details } : {}),
          cause: e,
          reachedSiex: reached,
        });
      }
      throw e;
    }
  }

  /** An authorised call with its retries. */
  function call(
    operation: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<Exchange> {
    return retrying(operation, () => authorised(operation, method, path, headers, body, signal), signal);
  }

  return {
    async ready(signal) {
      await retrying('comunicacion', token, signal);
    },

    async submit(document, idempotencyKey, signal) {
      if (!idempotencyKey || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
        throw new IuwsError(`idempotency key must have 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, {
          code: 'SIEX_REJECTED',
        });
      }
      const res = await call(
        'crear',
        'POST',
        IUWS_PATHS.submit,
        { [IDEMPOTENCY_HEADER]: idempotencyKey },
        JSON.stringify(document),
        signal,
      );
      const parsed = submitResponseSchema.safeParse(parseJson(res.text));
      if (!parsed.success)
        throw new IuwsError(`SIEX crear answered ${res.status} without an idPeticion`, {
          code: 'SIEX_PROTOCOL',
          status: res.status,
        });
      return parsed.data.idPeticion;
    },

    async status(requestId, signal) {
      const res = await call(
        'comprobarEstado',
        'GET',
        `${IUWS_PATHS.status}/${encodeURIComponent(requestId)}`,
        {},
        undefined,
        signal,
      );
      const parsed = statusResponseSchema.safeParse(parseJson(res.text));
      if (!parsed.success) {
        throw new IuwsError(
          `SIEX comprobarEstado answered ${res.status} with an unexpected body: ${parsed.error.issues[0]?.message}`,
          {
            code: 'SIEX_PROTOCOL',
            status: res.status,
          },
        );
      }
      const { estado, resultados } = parsed.data;
      if (estado !== 'FINALIZADO') return { state: 'pending', results: [] };
      return {
        state: 'done',
        results: resultados.map((r) => ({
          externalId: r.IdAjenaTratamFito,
          ok: r.resultado === 'OK',
          errors: r.errores.map((e) => ({ code: e.codigo, message: e.descripcion })),
        })),
      };
    },
  };
}
