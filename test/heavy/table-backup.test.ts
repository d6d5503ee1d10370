import { gunzipSync, gzipSync } from 'node:zlib';
import type { ContainerClient } from '@azure/storage-blob';
import { Azurite, startAzurite } from '../../local/azurite';
import { findProjectRoot } from '../../local/stack';
import { importDataset } from '../../shared/backoffice/import';
import { buildDemoDataset } from '../../local/demo/build-dataset';
import { backupContainer } from '../../shared/backup/backup-container';
import { tableBlob } from '../../shared/backup/snapshot-format';
import { COUNTER_RESTORE_GAP, restoreBackup } from '../../shared/backup/restore';
import { listSnapshots, SnapshotProblem } from '../../shared/backup/snapshot-reader';
import { takeBackup } from '../../shared/backup/table-backup';
import { Counters } from '../../shared/store/counters';
import { GATEWAY_TABLES } from '../../shared/app/record-kinds';
import { TABLES, TableStore } from '../../shared/store/tables';
import { runAdminCli } from '../helpers/admin-cli';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Backup, wipe, restore and compare against real Azurite (issue 27, item 1): every row back, every property with its
 * EDM type, ETags and timestamps aside; also into a fresh account, one holding alone, and never from a damaged
 * snapshot. Two Azurite instances of the test's own: the shared one's tables change under every other test file.
 */
const root = findProjectRoot(__dirname);
let source: Azurite;
let fresh: Azurite;
let tables: TableStore;
let container: ContainerClient;

/** Every row of every table, as listed with types, without what the service assigns. */
async function dump(store: TableStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of GATEWAY_TABLES) {
    const rows: unknown[] = [];
    for await (const e of (await store.table(name)).listEntities({ disableTypeConversion: true })) {
      const { etag: _etag, timestamp: _timestamp, ...rest } = e;
      rows.push(rest);
    }
    out[name] = rows;
  }
  return out;
}

/** Rows of every EDM type, a partition of 250 rows (three transactions) and text that breaks naive encoders. */
async function seedTypedRows(store: TableStore): Promise<void> {
  const phyto = await store.table(phytoEntry.table);
  // (No U+2028: Azurite's batch parser breaks on it, and the app escapes it on every write.)
  const big = 'é€😀'.repeat(7_000);
  await phyto.upsertEntity({
    partitionKey: 'h~ES000000000001',
    rowKey: 'typed',
    int32: 7,
    int64: { value: '9007199254740993', type: 'Int64' },
    double: 2.5,
    wholeDouble: { value: '3', type: 'Double' },
    when: { value: '2026-03-29T01:30:00.1234567Z', type: 'DateTime' },
    flag: false,
    guid: { value: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', type: 'Guid' },
    bin: new Uint8Array([0, 255, 128]),
    text: big,
  });
  for (let chunk = 0; chunk < 250; chunk += 50)
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        phyto.upsertEntity({ partitionKey: 'h~ES000000000002', rowKey: `r~${chunk + i}`, n: chunk + i }),
      ),
    );
  await new Counters(store).reserve('AgriPhytosanitary', 42);
}

beforeAll(async () => {
  [source, fresh] = await Promise.all([
    startAzurite({ projectRoot: root, inMemory: true }),
    startAzurite({ projectRoot: root, inMemory: true }),
  ]);
  tables = new TableStore({ AzureWebJobsStorage: source.connectionString });
  container = backupContainer({ BACKUP_STORAGE: source.connectionString, BACKUP_CONTAINER: 'table-backups' });
  await importDataset(buildDemoDataset(), tables);
  await seedTypedRows(tables);
}, 120_000);

afterAll(async () => {
  await Promise.all([source?.stop(), fresh?.stop()]);
});

/** What a restore must give back: the rows as they were, the counters moved past every id handed out since. */
function expectedAfterRestore(before: Record<string, unknown[]>): Record<string, unknown[]> {
  return {
    ...before,
    [TABLES.counters]: before[TABLES.counters].map((row) => {
      const r = row as { next: { value: string; type: string } };
      return { ...r, next: { ...r.next, value: String(Number(r.next.value) + COUNTER_RESTORE_GAP) } };
    }),
  };
}

describe('table backup and restore (real Azurite)', () => {
  let snapshot: string;
  let before: Record<string, unknown[]>;

  it('writes every table and a manifest last, and lists the snapshot', async () => {
    before = await dump(tables);
    const manifest = await takeBackup({
      tables,
      tableNames: GATEWAY_TABLES,
      container,
      now: () => new Date('2026-11-25T01:30:00Z'),
    });
    snapshot = manifest.snapshot;
    expect(snapshot).toBe('2026-11-25T01-30-00Z');
    expect(manifest.tables.map((t) => t.name).sort()).toEqual([...GATEWAY_TABLES].sort());
    for (const t of manifest.tables) expect(t.rows).toBe(before[t.name].length);
    expect(before[phytoEntry.table].length).toBe(251);
    expect(await listSnapshots(container)).toEqual([snapshot]);
  });

  it('brings every row back after the tables are wiped, types included, counters moved on', async () => {
    const service = tables.service();
    for (const name of GATEWAY_TABLES) await service.deleteTable(name);
    const wiped = new TableStore({ AzureWebJobsStorage: source.connectionString });
    expect(Object.values(await dump(wiped)).flat()).toHaveLength(0);
    const report = await restoreBackup({ tables: wiped, tableNames: GATEWAY_TABLES, container }, snapshot);
    expect(report.reduce((n, r) => n + r.rows, 0)).toBe(Object.values(before).flat().length);
    expect(await dump(wiped)).toEqual(expectedAfterRestore(before));
    // The counter hands out no id below its backed-up value plus the gap.
    const next = await new Counters(wiped).reserve('AgriPhytosanitary', 1);
    expect(next).toBeGreaterThanOrEqual(43 + COUNTER_RESTORE_GAP);
  });

  it('restores into a fresh account', async () => {
    const target = new TableStore({ AzureWebJobsStorage: fresh.connectionString });
    await restoreBackup({ tables: target, tableNames: GATEWAY_TABLES, container }, snapshot);
    expect(await dump(target)).toEqual(expectedAfterRestore(before));
  });

  it('restores one holding alone, leaving every other row as it is', async () => {
    const target = new TableStore({ AzureWebJobsStorage: fresh.connectionString });
    const phyto = await target.table(phytoEntry.table);
    await phyto.deleteEntity('h~ES000000000001', 'typed');
    await phyto.upsertEntity({ partitionKey: 'h~ES000000000002', rowKey: 'r~0', n: -1 });
    const report = await restoreBackup({ tables: target, tableNames: GATEWAY_TABLES, container }, snapshot, {
      table: phytoEntry.table,
      partition: 'h~ES000000000001',
    });
    expect(report).toEqual([{ table: phytoEntry.table, rows: 1 }]);
    expect((await phyto.getEntity('h~ES000000000001', 'typed')).text).toBe('é€😀'.repeat(7_000));
    expect((await phyto.getEntity('h~ES000000000002', 'r~0')).n).toBe(-1);
  });

  it('refuses a snapshot whose blob does not match its manifest, writing nothing', async () => {
    const blob = container.getBlockBlobClient(tableBlob(snapshot, TABLES.clients));
    const lines = gunzipSync(await blob.downloadToBuffer())
      .toString('utf8')
      .split('\n');
    const tampered = gzipSync(Buffer.from(lines.slice(1).join('\n')));
    await blob.upload(tampered, tampered.length);
    const service = new TableStore({ AzureWebJobsStorage: fresh.connectionString }).service();
    for (const name of GATEWAY_TABLES) await service.deleteTable(name);
    const empty = new TableStore({ AzureWebJobsStorage: fresh.connectionString });
    await expect(restoreBackup({ tables: empty, tableNames: GATEWAY_TABLES, container }, snapshot)).rejects.toThrow(
      SnapshotProblem,
    );
    expect(Object.values(await dump(empty)).flat()).toHaveLength(0);
  });

  it('refuses a snapshot that has no manifest', async () => {
    await expect(
      restoreBackup({ tables, tableNames: GATEWAY_TABLES, container }, '2000-01-01T00-00-00Z'),
    ).rejects.toThrow(/no complete snapshot named 2000-01-01T00-00-00Z/);
  });

  // The runbook's commands (docs/operations.md, "Backup and restore"), as an operator types them.
  it('backs up, lists and restores one holding through npm run admin', async () => {
    const env = { BACKUP_STORAGE: source.connectionString, BACKUP_CONTAINER: 'cli-backups' };
    const backup = await runAdminCli(['backup'], source.connectionString, env);
    expect(backup.stderr).toMatch(/phyto: 251 rows/);
    const snapshot = /^snapshot (\S+): \d+ rows$/m.exec(backup.stdout)?.[1];
    expect(snapshot).toBeDefined();
    const listed = await runAdminCli(['backups'], source.connectionString, env);
    expect(listed.stdout.trim().split('\n')).toEqual([snapshot]);
    const phyto = await tables.table(phytoEntry.table);
    await phyto.deleteEntity('h~ES000000000001', 'typed');
    const restored = await runAdminCli(
      ['restore', '--from', snapshot!, '--table', 'phyto', '--partition', 'h~ES000000000001'],
      source.connectionString,
      env,
    );
    expect(restored).toMatchObject({ code: 0 });
    expect(restored.stdout).toMatch(/^phyto: 1 rows restored$/m);
    expect((await phyto.getEntity('h~ES000000000001', 'typed')).text).toBe('é€😀'.repeat(7_000));
    const refused = await runAdminCli(['restore'], source.connectionString, env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/restore needs --from SNAPSHOT/);
  });
});
