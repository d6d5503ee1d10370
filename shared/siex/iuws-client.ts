import { systemClock } from '../time/clock';
import { Settings } from '../config/settings';
import { RetryAbortedError, RetryPolicy, withRetry } from '../http-client/retry';
import { Exchange, IuwsError, IuwsErrorCode, parseJson } from './iuws-errors';
import {
  CueSection,
  IDEMPOTENCY_HEADER,
  IUWS_PATHS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  resultBlock,
  statusResponseSchema,
  submitResponseSchema,
} from './iuws-protocol';
import { IuwsSession, iuwsSession } from './iuws-session';
import { iuwsTransport } from './iuws-transport';

export { IuwsError } from './iuws-errors';

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
 *              "resultados": [ { "<IdAjena field>": 123, "resultado": "OK" | "ERROR",
 *                                "errores": [ { "codigo": "...", "descripcion": "..." } ] } ] }   (filled when FINALIZADO)
 *            one result per block sent, named by its section's own id field (`IdAjenaEnergia` for an `EnergiaUtilizada` block)
 *     404    unknown request id
 *
 *   Errors answer { "codigo", "descripcion" }. 401 on crear / comprobarEstado means the token expired or was revoked.
 *   429 and 503 may carry Retry-After (seconds or an HTTP date).
 *
 * In production the TLS connection presents SIEX's client certificate (SIEX_CLIENT_CERT: base64 PFX, as Key Vault
 * hands out an imported certificate, or PEM certificate + private key), through undici (see client-certificate.ts).
 *
 * Behaviour, step by step, each step in its own place:
 * - Transport (iuws-transport.ts): the settings and the certificate; every HTTP exchange is abandoned after
 *   SIEX_TIMEOUT_MS.
 * - Session (iuws-session.ts): the token is cached until 60 s (or half its lifetime, if shorter) before it expires;
 *   concurrent callers share one `comunicacion` call. A 401 on crear / comprobarEstado drops the token and repeats
 *   the call once with a fresh one; a second 401 is an error (not retryable).
 * - Retries (retryingCalls below, cockatiel's loop through http-client/retry.ts): time-outs, network errors, 408, 429
 *   and 5xx (but 501 and 505) are retried up to SIEX_MAX_ATTEMPTS tries in all, waiting a random time in
 *   [0, min(20 s, SIEX_RETRY_BASE_MS * 2^(n-1))) before retry n, or what Retry-After says (up to 30 s; a longer
 *   Retry-After ends the retries at once). Other 4xx are not retried. `crear` is safe to repeat because every try
 *   carries the same idempotency key. There is no circuit breaker: the export queue's redelivery back-off already
 *   spaces the calls of an outage, and a breaker failing deliveries at once would spend their five tries (then the
 *   poison queue) while SIEX may be back.
 * - Submission and status (submissionId, submissionStatus below): the answers of crear and comprobarEstado. Each
 *   result is read by the IdAjena field of the section its block went in, among the sections the client is told the
 *   gateway sends (`sections`: its record kinds' `cue`); the field's name alone does not say the section
 *   (iuws-protocol.ts, CueSection), and the schema that does is not part of the deployed package.
 * - Failures are IuwsError (iuws-errors.ts): `retryable` says whether trying again later (a queue redelivery) may
 *   help, `status` is SIEX's HTTP status when there was one, `code` names the kind (IuwsErrorCode), and
 *   `reachedSiex` whether any try may have reached SIEX (false only when none can have: refused connections, no
 *   token, answers saying the request was not taken), so that a caller knows when a crear may be in SIEX although it
 *   failed.
 */

interface IuwsResult {
  /** The block's IdAjena, a sequence of its section's own. */
  externalId: number;
  /** The `ActividadesExplotacion` section of the block. */
  section: string;
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

export interface IuwsDeps {
  /** Replaces the HTTP stack (tests); otherwise global fetch, or undici's with an Agent when a client certificate is set. */
  fetch?: typeof fetch;
  random?: () => number;
  /** Clock for the token's expiry (tests). */
  now?: () => number;
  /** Told before each retry (for logs). */
  onRetry?: (info: { operation: string; attempt: number; error: unknown; delayMs: number }) => void;
}

/** The longest computed backoff delay, and the longest Retry-After waited for within one call. */
const IUWS_MAX_DELAY_MS = 20_000;
const IUWS_MAX_RETRY_AFTER_MS = 30_000;

/** Worth retrying at once, within one call, rather than only later by the caller. */
const TRANSIENT: ReadonlySet<IuwsErrorCode> = new Set(['SIEX_UNAVAILABLE', 'SIEX_TIMEOUT', 'SIEX_UNREACHABLE']);

export type Call = <T>(operation: string, attempt: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/**
 * The retry step: `attempt` with the retries transient failures earn; the last failure is rethrown, saying how many
 * tries it took and whether any of them may have reached SIEX.
 */
function retryingCalls(settings: Settings, deps: IuwsDeps): Call {
  const policy: RetryPolicy = {
    maxAttempts: settings.SIEX_MAX_ATTEMPTS,
    baseDelayMs: settings.SIEX_RETRY_BASE_MS,
    maxDelayMs: IUWS_MAX_DELAY_MS,
    maxRetryAfterMs: IUWS_MAX_RETRY_AFTER_MS,
  };
  const classify = (e: unknown) =>
    e instanceof IuwsError && TRANSIENT.has(e.code)
      ? { retry: true, ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}) }
      : { retry: false };
  return async (operation, attempt, signal) => {
    let tries = 0;
    // Whether any try may have reached SIEX: what the caller must assume, whatever the last try says.
    let reached = false;
    const counted = () => {
      tries++;
      return attempt().catch((e: unknown) => {
        if (!(e instanceof IuwsError) || e.reachedSiex) reached = true;
        throw e;
      });
    };
    const hooks = {
      ...(deps.random ? { random: deps.random } : {}),
      onRetry: (info: { attempt: number; error: unknown; delayMs: number }) => deps.onRetry?.({ operation, ...info }),
    };
    try {
      return await withRetry(counted, classify, policy, hooks, signal);
    } catch (e) {
      throw lastFailure(operation, e, tries, reached);
    }
  };
}

/** The error a call ends with after `tries`: the last one, saying when the retries gave up and whether SIEX may have been reached. */
function lastFailure(operation: string, e: unknown, tries: number, reached: boolean): unknown {
  if (e instanceof RetryAbortedError)
    return new IuwsError(`SIEX ${operation}: aborted by the caller`, {
      code: 'SIEX_ABORTED',
      cause: e.cause,
      reachedSiex: tries > 0,
    });
  const gaveUp = e instanceof IuwsError && TRANSIENT.has(e.code) && tries > 1;
  if (e instanceof IuwsError && (gaveUp || (reached && !e.reachedSiex))) {
    return new IuwsError(gaveUp ? `${e.message} (gave up after ${tries} tries)` : e.message, {
      code: e.code,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.details ? { details: e.details } : {}),
      cause: e,
      reachedSiex: reached,
    });
  }
  return e;
}

/** The submission step: crear's answer, the request id. */
function submissionId(res: Exchange): string {
  const parsed = submitResponseSchema.safeParse(parseJson(res.text));
  if (!parsed.success)
    throw new IuwsError(`SIEX crear answered ${res.status} without an idPeticion`, {
      code: 'SIEX_PROTOCOL',
      status: res.status,
    });
  return parsed.data.idPeticion;
}

/** The status step: comprobarEstado's answer, every block's outcome once SIEX has finished. */
function submissionStatus(res: Exchange, sections: readonly CueSection[]): IuwsStatus {
  const parsed = statusResponseSchema.safeParse(parseJson(res.text));
  if (!parsed.success) {
    throw new IuwsError(
      `SIEX comprobarEstado answered ${res.status} with an unexpected body: ${parsed.error.issues[0]?.message}`,
      { code: 'SIEX_PROTOCOL', status: res.status },
    );
  }
  const { estado, resultados } = parsed.data;
  if (estado !== 'FINALIZADO') return { state: 'pending', results: [] };
  return {
    state: 'done',
    results: resultados.map((r) => {
      const block = resultBlock(r, sections);
      if ('problem' in block)
        throw new IuwsError(`SIEX comprobarEstado answered ${res.status} with an unreadable result: ${block.problem}`, {
          code: 'SIEX_PROTOCOL',
          status: res.status,
        });
      return {
        externalId: block.id,
        section: block.section,
        ok: r.resultado === 'OK',
        errors: r.errores.map((e) => ({ code: e.codigo, message: e.descripcion })),
      };
    }),
  };
}

/**
 * What every IUWS operation goes through: the session (`usable`, which throws SIEX_NOT_CONFIGURED when the settings
 * leave SIEX unusable) and the retry step. The submission client below and the reads (iuws-register.ts) share it.
 */
export function iuwsConnection(settings: Settings, deps: IuwsDeps = {}): { usable: () => IuwsSession; retrying: Call } {
  const transport = iuwsTransport(settings, deps.fetch);
  const session: IuwsSession | undefined =
    'exchange' in transport
      ? iuwsSession(settings, transport.exchange, deps.now ?? (() => systemClock.now()))
      : undefined;
  return {
    usable: () => {
      if (!session) throw new IuwsError(transport.problem!, { code: 'SIEX_NOT_CONFIGURED', reachedSiex: false });
      return session;
    },
    retrying: retryingCalls(settings, deps),
  };
}

/**
 * The client, for a gateway that sends blocks of `sections` (its record kinds' `cue`: each section and its IdAjena
 * field), by which comprobarEstado's results are read.
 */
export function createIuwsClient(settings: Settings, sections: readonly CueSection[], deps: IuwsDeps = {}): IuwsClient {
  const { usable, retrying } = iuwsConnection(settings, deps);

  return {
    async ready(signal) {
      const s = usable();
      await retrying('comunicacion', () => s.token(), signal);
    },

    async submit(document, idempotencyKey, signal) {
      if (!idempotencyKey || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
        throw new IuwsError(`idempotency key must have 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`, {
          code: 'SIEX_REJECTED',
        });
      }
      const s = usable();
      const body = JSON.stringify(document);
      const headers = { [IDEMPOTENCY_HEADER]: idempotencyKey };
      const res = await retrying(
        'crear',
        () => s.authorised('crear', 'POST', IUWS_PATHS.submit, headers, body, signal),
        signal,
      );
      return submissionId(res);
    },

    async status(requestId, signal) {
      const s = usable();
      const path = `${IUWS_PATHS.status}/${encodeURIComponent(requestId)}`;
      const res = await retrying(
        'comprobarEstado',
        () => s.authorised('comprobarEstado', 'GET', path, {}, undefined, signal),
        signal,
      );
      return submissionStatus(res, sections);
    },
  };
}
