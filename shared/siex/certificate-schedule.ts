/**
 * 06:00 UTC every day (NCRONTAB with seconds): the SIEX client certificate's expiry is reported once a day, and the
 * siex-certificate-expiry alert (infra/monitoring/siex-certificate-expiry.kql) fires when it is less than 30 days away.
 * A module of its own: start-up (functions/index.ts) registers the timer with it alone.
 */
export const CERTIFICATE_CHECK_SCHEDULE = '0 0 6 * * *';
