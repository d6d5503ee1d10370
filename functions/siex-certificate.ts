import { InvocationContext, Timer } from '@azure/functions';
import { settings } from '../shared/config/config';
import { invocationSink } from '../shared/log/invocation-sink';
import { createLogger } from '../shared/log/logger';
import { certificateExpiryReport, certificateReportLevel } from '../shared/siex/certificate-expiry';
import { systemClock } from '../shared/time/clock';

/**
 * Every morning: when SIEX's client certificate expires, for the siex-certificate-expiry alert. It needs the settings
 * and its invocation's log only, so it builds no service container (storage clients, caches) for one line.
 */
export function siexCertificateCheck(_timer: Timer, context: InvocationContext): Promise<void> {
  const report = certificateExpiryReport(settings(), systemClock.now());
  if (report) createLogger(invocationSink(context)).event('siex.certificate', report, certificateReportLevel(report));
  return Promise.resolve();
}
