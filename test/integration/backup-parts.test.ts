import type { ContainerClient } from '@azure/storage-blob';
import { Azurite, startAzurite } from '../../local/azurite';
import { findProjectRoot } from '../../local/stack';
import { BackupLedger } from '../../shared/backup/backup-ledger';
import { backupContainer } from '../../shared/backup/backup-container';
import { restoreBackup } from '../../shared/backup/restore';
import { scheduledBackup } from '../../shared/backup/scheduled-backup';
import { manifestBlob, tableBlob } from '../../shared/backup/snapshot-format';
import { listSnapshots, readManifest } from '../../shared/backup/snapshot-reader';
import { writeSnapshot } from '../../shared/backup/table-backup';
import { FARM_TABLES, GATEWAY_TABLES } from '../../shared/app/record-kinds';
import { phytoEntry } from '../../shared/phyto/kind-entry';
import { TABLES, TableStore } from '../../shared/store/tables';

/**
 * Issue 36, item 4 (M5): the nightly backup in parts, each table split into runs of rows with the manifest written
 * last, so that no run of the timer does the whole backup inside one function time-out: a run stops between parts when
 * its time is up, the next goes on from the last part's last row, and the snapshot is offered only once its manifest is
 * there. Against an Azurite of the test's own, with parts of 100 rows.
 */
const root = findProjectRoot(__dirname);
let azurite: Azurite;
let tables: TableStore;
let container: ContainerClient;
let ledger: BackupLedger;

beforeAll(async () => {
  azurite = await startAzurite({ projectRoot: root, inMemory: true });
  tables = new TableStore({ AzureWebJobsStorage: azurite.connectionString });
  container = backupContainer({ BACKUP_STORAGE: azurite.connectionString, BACKUP_CONTAINER: 'parts' });
  ledger = new BackupLedger(tables);
  const phyto = await tables.table(phytoEntry.table);
  // 250 rows over three partitions (three parts of 100, 100 and 50), and jobs exactly 200 (two full parts, the second
  // marked as the table's end: the listing ended with it).
  for (let i = 0; i < 250; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        phyto.upsertEntity({ partitionKey: `h~ES00000000000${(i + j) % 3}`, rowKey: `r~${i + j}`, n: i + j }),
      ),
    );
  const jobs = await tables.table(TABLES.jobs);
  for (let i = 0; i < 200; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        jobs.upsertEntity({ partitionKey: `j${i + j}`, rowKey: 'status', n: i + j }),
      ),
    );
}, 120_000);

afterAll(async () => {
  await azurite?.stop();
});

const names = [phytoEntry.table, TABLES.jobs];

it('stops between parts when the run is out of time, and the next run finishes the snapshot from where it stood', async () => {
  // A clock that moves a minute each time it is read: the run reads it before each part, so a run given two and a
  // half minutes writes three parts of the five, and stops.
  let clock = Date.parse('2026-11-25T01:30:00Z');
  const now = () => new Date((clock += 60_000) - 60_000);
  const deps = { tables, container, ledger, tableNames: names, partRows: 100, now };
  const first = await writeSnapshot({ ...deps, deadline: clock + 150_000 }, '2026-11-25T01-30-00Z');
  expect(first).toBeNull();
  expect(await listSnapshots(container)).toEqual([]);
  expect(await container.getBlobClient(manifestBlob('2026-11-25T01-30-00Z')).exists()).toBe(false);

  const second = await writeSnapshot(deps, '2026-11-25T01-30-00Z');
  expect(second).not.toBeNull();
  const { manifest, manifestSha256 } = second!;
  expect(manifest.tables.map((t) => [t.name, t.rows, t.parts.map((p) => p.rows)])).toEqual([
    [phytoEntry.table, 250, [100, 100, 50]],
    [TABLES.jobs, 200, [100, 100]],
  ]);
  expect(manifest.tables[0].parts[0].blob).toBe(tableBlob('2026-11-25T01-30-00Z', phytoEntry.table, 0));
  expect(await ledger.manifestSha256('2026-11-25T01-30-00Z')).toBe(manifestSha256);
  expect((await readManifest(container, '2026-11-25T01-30-00Z', manifestSha256)).manifest).toEqual(manifest);
  expect(await listSnapshots(container)).toEqual(['2026-11-25T01-30-00Z']);
});

it('restores every part, and refuses a manifest whose checksum is not the copy kept outside the backup account', async () => {
  await expect(
    restoreBackup({ tables, tableNames: GATEWAY_TABLES, container }, '2026-11-25T01-30-00Z', {
      manifestSha256: '0'.repeat(64),
      replace: true,
    }),
  ).rejects.toThrow(/not .* as the copy kept outside the backup account says: nothing was restored/);
  const sha = (await ledger.manifestSha256('2026-11-25T01-30-00Z'))!;
  const report = await restoreBackup({ tables, tableNames: GATEWAY_TABLES, container }, '2026-11-25T01-30-00Z', {
    manifestSha256: sha,
    replace: true,
  });
  expect(report).toEqual([
    { table: phytoEntry.table, rows: 250 },
    { table: TABLES.jobs, rows: 200 },
  ]);
  const phyto = await tables.table(phytoEntry.table);
  let count = 0;
  for await (const _ of phyto.listEntities()) count++;
  expect(count).toBe(250);
});

it('begins the day’s snapshot at the first run from 01:30 UTC, goes on with it, and does nothing once it is done', async () => {
  const at = (iso: string) => () => new Date(iso);
  const deps = { tables, tableNames: GATEWAY_TABLES, farmTables: FARM_TABLES, container, ledger };
  expect(await scheduledBackup({ ...deps, now: at('2026-11-26T01:20:00Z') })).toEqual({ nothingDue: true });
  const run = await scheduledBackup({ ...deps, now: at('2026-11-26T01:30:00Z') });
  expect('written' in run && run.written.manifest.snapshot).toBe('2026-11-26T01-30-00Z');
  expect(await scheduledBackup({ ...deps, now: at('2026-11-26T01:40:00Z') })).toEqual({ nothingDue: true });
  expect(await listSnapshots(container)).toEqual(['2026-11-25T01-30-00Z', '2026-11-26T01-30-00Z']);
});
