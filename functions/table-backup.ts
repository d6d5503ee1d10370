import { InvocationContext, Timer } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { backupNow } from '../shared/backup/scheduled-backup';

/** Every night: every table the gateway owns, to the backup account (docs/operations.md, "Backup and restore"). */
export async function tableBackup(_timer: Timer, context: InvocationContext): Promise<void> {
  const manifest = await backupNow(processApp());
  const rows = manifest.tables.map((t) => `${t.name} ${t.rows}`).join(', ');
  context.log(`table backup ${manifest.snapshot} written: ${rows}`);
}
