import { InvocationContext, Timer } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { backupNow } from '../shared/backup/scheduled-backup';
import { invocationSink } from '../shared/log/invocation-sink';

/** Every night: every table the gateway owns, to the backup account (docs/operations.md, "Backup and restore"). */
export async function tableBackup(_timer: Timer, context: InvocationContext): Promise<void> {
  const app = processApp();
  const manifest = await backupNow(app);
  const rows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
  app.log.within({ sink: invocationSink(context) }, () =>
    app.log.event('backup.written', { snapshot: manifest.snapshot, rows }),
  );
}
