import { Settings } from '../config/settings';
import { clientCertificateFetch, parseClientCertificate } from '../http-client/client-certificate';
import { systemClock } from '../time/clock';

/** How a probe of SIEX's address ended: an answer below 500 means SIEX is there, whatever it thought of the call. */
export interface SiexProbe {
  outcome: 'reachable' | 'unreachable' | 'not-configured';
  durationMs: number;
  /** Why it was not reachable (the status, or the connection's error); absent otherwise. */
  detail?: string;
}

/** A probe waits this long at most: a health check answers in seconds, however slow SIEX is. */
const PROBE_TIMEOUT_MS = 5_000;

/** Unresolved Key Vault references stay in the setting as their own text (docs/operations.md, "SIEX certificate and secrets"). */
export const isUnresolvedReference = (value: string | undefined): boolean =>
  value?.startsWith('@Microsoft.KeyVault(') ?? false;

type ProbeSettings = Pick<Settings, 'SIEX_BASE_URL' | 'SIEX_CLIENT_CERT'>;

/** One fetch presenting the certificate per certificate text: a connection pool, not an agent per probe. */
let cached: { certificate: string; fetch: typeof fetch } | undefined;

function fetchFor(settings: ProbeSettings): typeof fetch {
  const certificate = settings.SIEX_CLIENT_CERT;
  if (!certificate) return fetch;
  if (cached?.certificate !== certificate)
    cached = { certificate, fetch: clientCertificateFetch(parseClientCertificate(certificate)) };
  return cached.fetch;
}

/**
 * Calls SIEX's address as the export worker would reach it (its client certificate presented), to tell whether SIEX
 * is there before any export needs it: the `siex-unreachable` alert reads these probes (infra/monitoring).
 */
export async function probeSiex(
  settings: ProbeSettings,
  now: () => number = () => systemClock.now(),
): Promise<SiexProbe> {
  const started = now();
  const elapsed = () => Math.max(0, Math.round(now() - started));
  if (!settings.SIEX_BASE_URL || isUnresolvedReference(settings.SIEX_CLIENT_CERT))
    return { outcome: 'not-configured', durationMs: 0 };
  try {
    const res = await fetchFor(settings)(settings.SIEX_BASE_URL, {
      method: 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.status < 500
      ? { outcome: 'reachable', durationMs: elapsed() }
      : { outcome: 'unreachable', durationMs: elapsed(), detail: `answered HTTP ${res.status}` };
  } catch (e) {
    return { outcome: 'unreachable', durationMs: elapsed(), detail: failureOf(e) };
  }
}

/** A failed fetch's reason: its cause's code where Node gives one (ECONNREFUSED, ENOTFOUND, a TLS error), or its name. */
function failureOf(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return code ? `${(e as Error).name} ${code}` : `${(e as Error).name}${cause?.message ? `: ${cause.message}` : ''}`;
}
