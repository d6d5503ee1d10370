import { InvocationContext, Timer } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { backupNow } from '../shared/backup/scheduled-backup';
import { invocationSink } from '../shared/log/invocation-sink';

/**
 * Every 10 minutes: the day's snapshot of every table the gateway owns, to the backup account, in as many runs as it
 * takes (docs/operations.md, "Backup and restore"); the run that writes its manifest says so.
 */
export async function tableBackup(_timer: Timer, context: InvocationContext): Promise<void> {
  const app = processApp();
  const run = await backupNow(app);
  if (!('written' in run)) return;
  const { manifest, manifestSha256 } = run.written;
  const rows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
  app.log.within({ sink: invocationSink(context) }, () =>
    app.log.event('backup.written', { snapshot: manifest.snapshot, rows, manifestSha256 }),
  );
}
