import { InvocationContext, Timer } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { settings } from '../shared/config/config';
import { invocationSink } from '../shared/log/invocation-sink';
import { certificateExpiryReport, certificateReportLevel } from '../shared/siex/certificate-expiry';

/** Every morning: when SIEX's client certificate expires, for the siex-certificate-expiry alert. */
export function siexCertificateCheck(_timer: Timer, context: InvocationContext): Promise<void> {
  const report = certificateExpiryReport(settings(), Date.now());
  if (report) {
    const { log } = processApp();
    log.within({ sink: invocationSink(context) }, () =>
      log.event('siex.certificate', report, certificateReportLevel(report)),
    );
  }
  return Promise.resolve();
}
