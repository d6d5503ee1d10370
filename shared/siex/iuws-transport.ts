import { Settings } from '../config/settings';
import { clientCertificateFetch, parseClientCertificate } from '../http-client/client-certificate';
import { Exchange, IuwsError } from './iuws-errors';

/**
 * The transport step of the IUWS client: which fetch to use (undici with SIEX's client certificate, or the global
 * one), whether the settings allow a call at all, and one HTTP exchange under SIEX_TIMEOUT_MS with transport failures
 * turned into IuwsError.
 */

export type ExchangeFn = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal?: AbortSignal,
) => Promise<Exchange>;

/** Either what stops every call (said to the caller as SIEX_NOT_CONFIGURED), or the exchange to make calls with. */
export type IuwsTransport = { problem: string } | { problem?: undefined; exchange: ExchangeFn };

/** Network failures that happen before a connection exists: the request cannot have reached SIEX. */
const NEVER_CONNECTED: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** What Key Vault leaves in a setting whose reference it could not resolve (missing secret, missing role). */
const UNRESOLVED_KEY_VAULT_REFERENCE = /^@Microsoft\.KeyVault\(/i;

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

/** The fetch that presents SIEX's client certificate when one is set, or why it cannot. */
function certificateFetch(settings: Settings): { problem: string } | { fetch: typeof fetch } {
  if (!settings.SIEX_CLIENT_CERT) return { fetch };
  if (!/^https:/i.test(settings.SIEX_BASE_URL ?? '')) {
    return { problem: 'SIEX_CLIENT_CERT is set, so SIEX_BASE_URL must be https' };
  }
  try {
    return { fetch: clientCertificateFetch(parseClientCertificate(settings.SIEX_CLIENT_CERT)) };
  } catch (e) {
    return { problem: `SIEX_CLIENT_CERT is unusable: ${(e as Error).message}` };
  }
}

/** `fetchOverride` replaces the HTTP stack (tests); the certificate is then not used. */
export function iuwsTransport(settings: Settings, fetchOverride?: typeof fetch): IuwsTransport {
  const problem = configurationProblem(settings);
  if (problem) return { problem };
  const chosen = fetchOverride ? { fetch: fetchOverride } : certificateFetch(settings);
  if ('problem' in chosen) return chosen;
  return { exchange: exchangeWith(chosen.fetch, (settings.SIEX_BASE_URL ?? '').replace(/\/+$/, ''), settings) };
}

function exchangeWith(fetchImpl: typeof fetch, base: string, settings: Settings): ExchangeFn {
  const timeoutMs = settings.SIEX_TIMEOUT_MS;
  return async (method, path, headers, body, signal) => {
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
  };
}
