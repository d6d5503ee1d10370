import { Settings } from '../config/settings';
import { LogEvents } from '../log/log-events';
import { LogLevel } from '../log/logger';
import { certificateNotAfter, parseClientCertificate } from '../http-client/client-certificate';

/**
 * What the daily certificate check logs (the `siex.certificate` event), which the siex-certificate-expiry alert reads:
 * SIEX refuses every call once the client certificate has expired, and FEGA takes weeks to issue a new one (README,
 * "SIEX certificate and credentials"), so operators hear of it 30 days ahead. Nothing is reported without a
 * certificate, or with one the platform could not resolve: the siex-not-configured alert covers those.
 */
const DAY_MS = 86_400_000;

/** The alert's threshold (infra/monitoring/siex-certificate-expiry.kql): the event is a warning from then on. */
const WARNING_DAYS = 30;

export function certificateExpiryReport(settings: Settings, now: number): LogEvents['siex.certificate'] | undefined {
  const text = settings.SIEX_CLIENT_CERT;
  if (!text || /^@Microsoft\.KeyVault\(/i.test(text)) return undefined;
  let notAfter: Date;
  try {
    notAfter = certificateNotAfter(parseClientCertificate(text));
  } catch (e) {
    return { unreadable: (e as Error).message };
  }
  return { notAfter: notAfter.toISOString(), daysLeft: Math.floor((notAfter.getTime() - now) / DAY_MS) };
}

/** A warning once the alert would fire: unreadable, or within its 30 days. */
export function certificateReportLevel(report: LogEvents['siex.certificate']): LogLevel {
  return report.unreadable !== undefined || (report.daysLeft ?? 0) < WARNING_DAYS ? 'warn' : 'info';
}
