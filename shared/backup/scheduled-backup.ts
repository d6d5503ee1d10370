import { Settings } from '../config/settings';
import { TableStore } from '../store/tables';
import { backupContainer } from './backup-container';
import { Manifest } from './snapshot-format';
import { takeBackup } from './table-backup';

/** The nightly backup of the process's tables to the configured backup container. */
export function backupNow(app: {
  settings: Settings;
  tables: TableStore;
  tableNames: readonly string[];
}): Promise<Manifest> {
  return takeBackup({
    tables: app.tables,
    tableNames: app.tableNames,
    container: backupContainer(app.settings),
    now: () => new Date(),
  });
}
