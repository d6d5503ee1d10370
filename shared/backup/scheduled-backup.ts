import type { ContainerClient } from '@azure/storage-blob';
import { Settings } from '../config/settings';
import { BackupLedger } from './backup-ledger';
import { backupContainer } from './backup-container';
import { manifestBlob, snapshotName, snapshotStart } from './snapshot-format';
import { Tables, writeSnapshot, WrittenSnapshot } from './table-backup';

/** When the day's snapshot is due (UTC). */
const DUE_HOUR = 1;
const DUE_MINUTE = 30;
/** A run writes parts for this long at most, well inside host.json's functionTimeout (10 minutes). */
const RUN_BUDGET_MS = 7 * 60_000;
/** An unfinished snapshot older than this is abandoned for a new one (its parts stay, immutable, never offered). */
const ABANDON_AFTER_MS = 24 * 3_600_000;

/** What a scheduled run did. */
export type BackupRun = { written: WrittenSnapshot } | { pending: string } | { nothingDue: true };

/** The day's due time for `now`, or null before it. */
function dueToday(now: Date): Date | null {
  const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DUE_HOUR, DUE_MINUTE));
  return now >= due ? due : null;
}

/** The snapshots begun in the last two days, newest first, each with whether its manifest is there. */
async function recentSnapshots(container: ContainerClient, now: Date): Promise<{ name: string; done: boolean }[]> {
  if (!(await container.exists())) return [];
  const days = [now, new Date(now.getTime() - 86_400_000)].map((d) => d.toISOString().slice(0, 10));
  const names: string[] = [];
  for (const day of days)
    for await (const item of container.listBlobsByHierarchy('/', { prefix: day }))
      if (item.kind === 'prefix') names.push(item.name.replace(/\/$/, ''));
  const out: { name: string; done: boolean }[] = [];
  for (const name of names.sort().reverse())
    out.push({ name, done: await container.getBlobClient(manifestBlob(name)).exists() });
  return out;
}

/**
 * One run of the timer: goes on with an unfinished snapshot of the last day, else begins the day's once it is due,
 * and writes until the run's budget is spent.
 */
export async function scheduledBackup(deps: {
  tables: Tables;
  tableNames: readonly string[];
  farmTables: readonly string[];
  container: ContainerClient;
  ledger: BackupLedger;
  now: () => Date;
}): Promise<BackupRun> {
  const now = deps.now();
  const recent = await recentSnapshots(deps.container, now);
  const unfinished = recent.find((s) => !s.done && now.getTime() - snapshotStart(s.name).getTime() < ABANDON_AFTER_MS);
  const due = dueToday(now);
  const doneToday = recent.some((s) => s.done && due !== null && snapshotStart(s.name) >= due);
  const snapshot = unfinished?.name ?? (due && !doneToday ? snapshotName(now) : null);
  if (!snapshot) return { nothingDue: true };
  const written = await writeSnapshot({ ...deps, deadline: now.getTime() + RUN_BUDGET_MS }, snapshot);
  return written ? { written } : { pending: snapshot };
}

/** The timer's run against the process's tables and the configured backup container. */
export function backupNow(app: {
  settings: Settings;
  tables: Tables;
  tableNames: readonly string[];
  farmTables: readonly string[];
}): Promise<BackupRun> {
  return scheduledBackup({
    tables: app.tables,
    tableNames: app.tableNames,
    farmTables: app.farmTables,
    container: backupContainer(app.settings),
    ledger: new BackupLedger(app.tables),
    now: () => new Date(),
  });
}
