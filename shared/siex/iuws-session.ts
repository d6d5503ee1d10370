import { Settings } from '../config/settings';
import { Exchange, IuwsError, httpError, parseJson } from './iuws-errors';
import { IUWS_PATHS, tokenResponseSchema } from './iuws-protocol';
import { ExchangeFn } from './iuws-transport';

/**
 * The session step of the IUWS client: the bearer token from `comunicacion`, cached until TOKEN_REFRESH_MARGIN_MS
 * (or half its lifetime, if shorter) before it expires and shared by concurrent callers, and one try of an
 * authorised call with the single token refresh that a 401 earns.
 */

/** A token is renewed this long before it expires (or at half its lifetime, if that is shorter). */
const TOKEN_REFRESH_MARGIN_MS = 60_000;

export interface IuwsSession {
  /** The current token, asking SIEX for one when there is none or it is about to expire. */
  token(): Promise<string>;
  /** One try of a call with the token; a 401 drops it and repeats the call once with a fresh one. Non-2xx throws. */
  authorised(
    operation: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<Exchange>;
}

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

export function iuwsSession(settings: Settings, exchange: ExchangeFn, now: () => number): IuwsSession {
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

  return {
    token,
    async authorised(operation, method, path, headers, body, signal) {
      const send = (bearer: string) =>
        exchange(method, path, { ...headers, authorization: `Bearer ${bearer}` }, body, signal);
      let current = await unsentWithout(token);
      let res = await send(current);
      if (res.status === 401) {
        if (cached?.token === current) cached = undefined;
        current = await unsentWithout(token);
        res = await send(current);
        if (res.status === 401) {
          throw new IuwsError(`SIEX ${operation} refused a freshly issued token (401 twice)`, {
            code: 'SIEX_AUTH',
            status: 401,
          });
        }
      }
      if (res.status < 200 || res.status > 299) throw httpError(operation, res, now());
      return res;
    },
  };
}
