/**
 * Every 10 minutes from 01:00 to 05:50 UTC (NCRONTAB with seconds, as the Functions host reads it). The day's snapshot
 * starts at the first run from 01:30 UTC (after Spain's working day, before anyone registers the next morning's
 * treatments) and each run writes parts until its time budget is spent (scheduled-backup.ts), so a large account's
 * backup spreads over as many runs as it needs, up to 27 of them, and no run nears the function's time-out. A run with
 * nothing to do lists one day of blobs. The backup-age alert (infra/monitoring/backup-age.kql) fires when no snapshot
 * was completed for 26 hours. A module of its own: start-up (functions/index.ts) registers the timer with it alone.
 */
export const BACKUP_SCHEDULE = '0 */10 1-5 * * *';
