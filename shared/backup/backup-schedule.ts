/**
 * 01:30 UTC every day (NCRONTAB with seconds, as the Functions host reads it): after Spain's working day, before anyone
 * registers the next morning's treatments. The backup-age alert (infra/monitoring/backup-age.kql) fires when no backup
 * succeeded for 26 hours. A module of its own: start-up (functions/index.ts) registers the timer with it alone.
 */
export const BACKUP_SCHEDULE = '0 30 1 * * *';
