import { MultiBar, Presets } from 'cli-progress';
import type { ContainerClient } from '@azure/storage-blob';
import { parseSettings } from '../shared/config/config';
import { Settings } from '../shared/config/settings';
import { backupContainer } from '../shared/backup/backup-container';
import { listSnapshots, Progress, restoreBackup, takeBackup } from '../shared/backup/table-backup';
import { TableStore } from '../shared/store/tables';
import { GATEWAY_TABLES } from '../shared/app/record-kinds';

/**
 * `npm run admin -- backup|backups|restore`: the nightly backup by hand, the snapshots there are, and a restore, each
 * with a progress bar per table on a terminal (plain lines otherwise). docs/operations.md has the runbooks.
 */

/** A bar per table while stderr is a terminal; otherwise one line per finished table, for logs. */
function progressReporter(): { onProgress: (p: Progress) => void; stop: () => void } {
  if (!process.stderr.isTTY) {
    return {
      onProgress: (p) => {
        if (p.done) console.error(`${p.table}: ${p.rows} rows`);
      },
      stop: () => undefined,
    };
  }
  const bars = new MultiBar(
    { format: '{table} [{bar}] {value}/{total} rows', clearOnComplete: false, hideCursor: true },
    Presets.shades_classic,
  );
  const byTable = new Map<string, ReturnType<MultiBar['create']>>();
  return {
    onProgress: (p) => {
      const total = p.total ?? (p.done ? p.rows : Math.max(p.rows * 2, 1));
      let bar = byTable.get(p.table);
      if (!bar) byTable.set(p.table, (bar = bars.create(total, 0, { table: p.table.padEnd(8) })));
      bar.setTotal(total);
      bar.update(p.rows);
    },
    stop: () => bars.stop(),
  };
}

/** The backup container of the settings, or of the blob storage and container the command line names. */
function containerOf(settings: Settings, storage: string | undefined, name: string | undefined): ContainerClient {
  return backupContainer({
    ...settings,
    ...(storage ? { BACKUP_STORAGE: storage } : {}),
    ...(name ? { BACKUP_CONTAINER: name } : {}),
  });
}

/** Runs `work` with the progress bars shown, and takes them down (on success or failure) before anything is printed. */
async function withProgress<T>(work: (onProgress: (p: Progress) => void) => Promise<T>): Promise<T> {
  const progress = progressReporter();
  try {
    return await work(progress.onProgress);
  } finally {
    progress.stop();
  }
}

export async function backupCommand(values: { to?: string; container?: string }): Promise<number> {
  const settings = parseSettings(process.env);
  const container = containerOf(settings, values.to, values.container);
  const manifest = await withProgress((onProgress) =>
    takeBackup({
      tables: new TableStore(settings),
      tableNames: GATEWAY_TABLES,
      container,
      now: () => new Date(),
      onProgress,
    }),
  );
  console.log(`snapshot ${manifest.snapshot}: ${manifest.tables.reduce((n, t) => n + t.rows, 0)} rows`);
  return 0;
}

export async function listBackupsCommand(values: { from?: string; container?: string }): Promise<number> {
  const container = containerOf(parseSettings(process.env), values.from, values.container);
  for (const snapshot of await listSnapshots(container)) console.log(snapshot);
  return 0;
}

export async function restoreCommand(values: {
  from: string;
  to?: string;
  storage?: string;
  container?: string;
  table?: string;
  partition?: string;
}): Promise<number> {
  const settings = parseSettings(process.env);
  const container = containerOf(settings, values.storage, values.container);
  const tables = new TableStore(values.to ? { AzureWebJobsStorage: values.to } : settings);
  const report = await withProgress((onProgress) =>
    restoreBackup({ tables, tableNames: GATEWAY_TABLES, container, onProgress }, values.from, {
      table: values.table,
      partition: values.partition,
    }),
  );
  for (const r of report) console.log(`${r.table}: ${r.rows} rows restored`);
  return 0;
}
