import { InvocationContext, Timer } from '@azure/functions';
import { settings } from '../shared/config/config';
import { certificateExpiryReport } from '../shared/siex/certificate-expiry';

/** Every morning: when SIEX's client certificate expires, for the siex-certificate-expiry alert. */
export function siexCertificateCheck(_timer: Timer, context: InvocationContext): Promise<void> {
  const report = certificateExpiryReport(settings(), Date.now());
  if (report) context.log(report);
  return Promise.resolve();
}
