import { Settings } from '../config/settings';
import { certificateNotAfter, parseClientCertificate } from '../http-client/client-certificate';

/**
 * The line the daily certificate check logs, which the siex-certificate-expiry alert parses: SIEX refuses every call
 * once the client certificate has expired, and FEGA takes weeks to issue a new one (README, "SIEX certificate and
 * credentials"), so operators hear of it 30 days ahead. Nothing is reported without a certificate, or with one the
 * platform could not resolve: the siex-not-configured alert covers those.
 */
const CERTIFICATE_EXPIRY_PREFIX = 'SIEX client certificate expires ';

const DAY_MS = 86_400_000;

export function certificateExpiryReport(settings: Settings, now: number): string | undefined {
  const text = settings.SIEX_CLIENT_CERT;
  if (!text || /^@Microsoft\.KeyVault\(/i.test(text)) return undefined;
  let notAfter: Date;
  try {
    notAfter = certificateNotAfter(parseClientCertificate(text));
  } catch (e) {
    return `SIEX client certificate unreadable: ${(e as Error).message}`;
  }
  const daysLeft = Math.floor((notAfter.getTime() - now) / DAY_MS);
  return `${CERTIFICATE_EXPIRY_PREFIX}${notAfter.toISOString()} (${daysLeft} days left)`;
}
