import { readFileSync, writeFileSync } from 'node:fs';
import { MultiBar, Presets } from 'cli-progress';
import { DateTime } from 'luxon';
import type { ContainerClient } from '@azure/storage-blob';
import { createServices } from '../shared/app/services';
import { BackupLedger } from '../shared/backup/backup-ledger';
import { backupContainer } from '../shared/backup/backup-container';
import { Deletion, deletionIn, deletionLogSchema } from '../shared/backup/deletion-log';
import { restoreBackup } from '../shared/backup/restore';
import { listSnapshots } from '../shared/backup/snapshot-reader';
import { Progress, takeBackup } from '../shared/backup/table-backup';
import { parseSettings } from '../shared/config/config';
import { formatDateTime, ZONE } from '../shared/domain/dates';
import { Settings } from '../shared/config/settings';
import { FarmStore } from '../shared/farms/farm-store';
import { silentLogger } from '../shared/log/logger';
import { holdingPartition } from '../shared/records/record-keys';
import { TableStore } from '../shared/store/tables';
import { systemClock } from '../shared/time/clock';
import { FARM_TABLES, GATEWAY_TABLES, RECORD_KINDS } from '../shared/app/record-kinds';

/**
 * `npm run admin -- backup|backups|restore|reapply-deletions`: the nightly backup by hand, the snapshots there are,
 * a restore, and the deletions a restore applies again, each with a progress bar per table on a terminal (plain
 * lines otherwise). docs/operations.md has the runbooks.
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

/** The backup container of the settings, or of the blob storage, endpoint and container the command line names. */
function containerOf(
  settings: Settings,
  values: { storage?: string; 'backup-endpoint'?: string; container?: string },
): ContainerClient {
  return backupContainer({
    ...settings,
    ...(values.storage ? { BACKUP_STORAGE: values.storage } : {}),
    ...(values['backup-endpoint']
      ? { BACKUP_STORAGE: undefined, BACKUP_BLOB_ENDPOINT: values['backup-endpoint'] }
      : {}),
    ...(values.container ? { BACKUP_CONTAINER: values.container } : {}),
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
  const container = containerOf(settings, { storage: values.to, container: values.container });
  const tables = new TableStore(settings);
  const ledger = new BackupLedger(tables);
  const manifest = await withProgress((onProgress) =>
    takeBackup({
      tables,
      tableNames: GATEWAY_TABLES,
      farmTables: FARM_TABLES,
      container,
      ledger,
      now: () => new Date(),
      onProgress,
    }),
  );
  console.log(`snapshot ${manifest.snapshot}: ${manifest.tables.reduce((n, t) => n + t.rows, 0)} rows`);
  console.log(`manifest SHA-256 ${await ledger.manifestSha256(manifest.snapshot)}`);
  return 0;
}

export const LIST_OPTIONS = {
  from: { type: 'string' },
  'backup-endpoint': { type: 'string' },
  container: { type: 'string' },
} as const;

export async function listBackupsCommand(values: {
  from?: string;
  'backup-endpoint'?: string;
  container?: string;
}): Promise<number> {
  const container = containerOf(parseSettings(process.env), { ...values, storage: values.from });
  for (const snapshot of await listSnapshots(container)) console.log(snapshot);
  return 0;
}

/** The flags of `restore` (local/admin.ts parses them). */
export const RESTORE_OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  'to-account': { type: 'string' },
  storage: { type: 'string' },
  'backup-endpoint': { type: 'string' },
  container: { type: 'string' },
  table: { type: 'string' },
  partition: { type: 'string' },
  farm: { type: 'string' },
  replace: { type: 'boolean' },
  'manifest-sha256': { type: 'string' },
  unverified: { type: 'boolean' },
  deletions: { type: 'string' },
} as const;

type RestoreValues = {
  [K in keyof typeof RESTORE_OPTIONS]?: (typeof RESTORE_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
};

/** A command line `restore` cannot act on; told with the usage. */
export class RestoreUsage extends Error {}

/**
 * The settings of the restore's target: the configured storage (every account of STORAGE_ACCOUNTS), a connection
 * string, or an account by Entra ID. `--to` and `--to-account` name one account: a snapshot of several is restored into
 * several by setting AzureWebJobsStorage and STORAGE_ACCOUNTS in the environment instead (restore.ts refuses a snapshot
 * holding more accounts than its target).
 */
function targetSettings(values: RestoreValues): Settings {
  const env = { ...process.env };
  if (values.to || values['to-account']) delete env.STORAGE_ACCOUNTS;
  if (values.to) env.AzureWebJobsStorage = values.to;
  if (values['to-account']) {
    delete env.AzureWebJobsStorage;
    env.AzureWebJobsStorage__accountName = values['to-account'];
  }
  return parseSettings(env);
}

/**
 * The manifest checksum the restore must find: given on the command line (read from the workspace when the data
 * account is lost), or the one the backup recorded in the configured data account. None is a refusal, unless the
 * operator says so (`--unverified`).
 */
async function expectedManifest(
  settings: Settings,
  snapshot: string,
  values: RestoreValues,
): Promise<string | undefined> {
  if (values['manifest-sha256']) return values['manifest-sha256'];
  const recorded = await new BackupLedger(new TableStore(settings)).manifestSha256(snapshot);
  if (recorded) return recorded;
  if (values.unverified) {
    console.error(`warning: the manifest of ${snapshot} is not checked against a copy outside the backup account`);
    return undefined;
  }
  throw new RestoreUsage(
    `no copy of the manifest checksum of ${snapshot} in this data account: pass --manifest-sha256 from the ` +
      'backup.written event (docs/operations.md, "Restore everything"), or --unverified',
  );
}

export async function restoreCommand(values: RestoreValues & { from: string }): Promise<number> {
  if (values.farm && values.partition) throw new RestoreUsage('restore takes --farm or --partition, not both');
  if (values.to && values['to-account']) throw new RestoreUsage('restore takes --to or --to-account, not both');
  const settings = parseSettings(process.env);
  const container = containerOf(settings, values);
  const target = targetSettings(values);
  const manifestSha256 = await expectedManifest(settings, values.from, values);
  // A holding's rows are its partition in each record kind's table; every other table has no such partition.
  const partition = values.farm ? holdingPartition({ rea: values.farm, farmId: 0 }) : values.partition;
  const deletions: Deletion[] = [];
  const report = await withProgress((onProgress) =>
    restoreBackup({ tables: new TableStore(target), tableNames: GATEWAY_TABLES, container, onProgress }, values.from, {
      table: values.table,
      partition,
      replace: values.replace,
      manifestSha256,
      onRemoved: (table, row) => {
        const deletion = deletionIn(table, row);
        if (deletion) deletions.push(deletion);
      },
    }),
  );
  for (const r of report) console.log(`${r.table}: ${r.rows} rows restored`);
  if (deletions.length === 0) return 0;
  const file = values.deletions ?? `restore-${values.from}-deletions.json`;
  writeFileSync(file, `${JSON.stringify(deletions, null, 2)}\n`);
  console.log(`${deletions.length} deletion(s) made since the snapshot, kept in ${file}: applying them again`);
  return applyDeletions(target, deletions);
}

/** The record kinds' tables, to the URN type the export's registry knows each by (shared/app/record-kinds.ts). */
const KIND_BY_TABLE = new Map<string, string>(RECORD_KINDS.map((k) => [k.table, k.urnType]));

/**
 * Deletes the records of the log again, each through its kind's own deletion (its history rows stop counting it), as
 * a deletion SIEX already took: SIEX is not asked again. A record already deleted, or absent, is left as it is.
 */
async function applyDeletions(settings: Settings, deletions: Deletion[]): Promise<number> {
  const svc = createServices(settings, systemClock, silentLogger);
  const kinds = await svc.exportKinds();
  const farms = new FarmStore(svc.tables, 0);
  // As every version's date is written: Madrid time, the interface's format.
  const at = formatDateTime(DateTime.now().setZone(ZONE));
  for (const d of deletions) {
    const type = KIND_BY_TABLE.get(d.table);
    const farm = await farms.index(d.farmId);
    if (!type || !farm) {
      console.error(`record ${d.id} of ${d.table}: no such record kind or farm ${d.farmId} here; left as it is`);
      continue;
    }
    await kinds.of(type).deleteAccepted(farm, [d.id], { client: 'restore', at, jobId: 0 });
  }
  console.log(`${deletions.length} deletion(s) applied again`);
  return 0;
}

export async function reapplyDeletionsCommand(file: string, values: RestoreValues): Promise<number> {
  const deletions = deletionLogSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  return applyDeletions(targetSettings(values), deletions);
}
