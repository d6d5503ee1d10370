import type { TableClient } from '@azure/data-tables';
import { odata } from '@azure/data-tables';
import type { ContainerClient } from '@azure/storage-blob';
import { DateTime } from 'luxon';
import { Azurite, startAzurite } from '../../local/azurite';
import { RunningSiexSimulator, startSiexSimulator } from '../../local/siex-simulator/server';
import { findProjectRoot } from '../../local/stack';
import { FARM_TABLES, GATEWAY_TABLES } from '../../shared/app/record-kinds';
import { createServices, Services } from '../../shared/app/services';
import { backupContainer } from '../../shared/backup/backup-container';
import { restoreBackup } from '../../shared/backup/restore';
import { takeBackup } from '../../shared/backup/table-backup';
import { parseSettings } from '../../shared/config/config';
import { startExport } from '../../shared/export/export-service';
import { runExportJob } from '../../shared/export/worker';
import { accessibleFarm } from '../../shared/farms/farm-service';
import { resultOf } from '../../shared/http/job-answers';
import { silentLogger } from '../../shared/log/logger';
import { phytoEntry } from '../../shared/phyto/kind-entry';
import { holdingPartition } from '../../shared/records/record-keys';
import { FarmAccounts, hashedAccount } from '../../shared/store/farm-accounts';
import { TABLES, TableStore } from '../../shared/store/tables';
import { systemClock } from '../../shared/time/clock';
import { CAMPAIGN, TEST_MAX_BACKDATE_DAYS } from '../helpers/dataset';
import { sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { simulatorIuws } from '../helpers/in-process-export';
import { body, inProcessRegister, inProcessWorker, seedPhyto, testClient } from '../helpers/phyto-stack';

/**
 * Issue 37, item 2: farms spread over two data accounts (two Azurites of this file's own, over HTTP). Each farm's rows,
 * records, versions, history and idempotency entries, are in the account recorded for it and in no other; jobs,
 * clients, catalogues and the farms' accounts stay in the first; the export, the backup and the restore work across
 * both.
 */
const root = findProjectRoot(__dirname);
/** Two REAs the hash sends to different accounts of two (storage-accounts unit test: a pure function of the REA). */
const FIRST = 'ES280790000001';
const SECOND = 'ES280790000004';

let first: Azurite;
let second: Azurite;
let tables: TableStore;
let svc: Services;
let sim: RunningSiexSimulator;
let container: ContainerClient;
const client = testClient('accounts', [FIRST, SECOND]);
const keys = { sidKey: client.sidKey, apiKey: client.apiKey };

const settingsOf = (accounts: string[]) =>
  parseSettings({
    AzureWebJobsStorage: accounts[0],
    STORAGE_ACCOUNTS: accounts.join(','),
    AUTH_MODE: 'local',
    RATE_LIMIT_PER_MINUTE: '1000000',
    MAX_BACKDATE_DAYS: String(TEST_MAX_BACKDATE_DAYS),
    REFERENCE_CACHE_SECONDS: '0',
  });

beforeAll(async () => {
  [first, second, sim] = await Promise.all([
    startAzurite({ projectRoot: root, inMemory: true }),
    startAzurite({ projectRoot: root, inMemory: true }),
    startSiexSimulator({ knobs: { processingMs: 0 }, log: () => undefined }),
  ]);
  const settings = settingsOf([first.connectionString, second.connectionString]);
  tables = new TableStore(settings);
  svc = createServices(settings, systemClock, silentLogger);
  container = backupContainer({ BACKUP_STORAGE: first.connectionString, BACKUP_CONTAINER: 'accounts' });
  await seedPhyto({ farms: [sendableFarm(FIRST), sendableFarm(SECOND)], clients: [client] }, tables);
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop(), sim?.stop()]);
});

/** The farm as the gateway sees it, and its AgriFarm id. */
async function farmOf(rea: string) {
  const me = (await svc.gate.findClient(client.sidKey))!;
  const agrifarmId = `urn:ngsi-ld:AgriFarm:${(await svc.farms.lookupInfo(rea, CAMPAIGN))!.farmId}`;
  return { me, agrifarmId, farm: await accessibleFarm(svc.farms, me, agrifarmId) };
}

/** Registers a treatment on the farm through the POST handler, under an Idempotency-Key; its id. */
async function register(rea: string): Promise<number> {
  const { farm, agrifarmId } = await farmOf(rea);
  const vine = farm.doc.idcps.find((e) => farm.cropOf(e).typecropId === '102')!;
  const res = await inProcessRegister(svc, () => DateTime.now())(
    keys,
    agrifarmId,
    JSON.stringify(body({ idcp: [String(vine.idcp)], ...SIEX_FIELDS })),
    { 'Idempotency-Key': `accounts-${rea}-${Math.random()}` },
  );
  if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
  return Number(String(res.json[0].id).split(':').pop());
}

async function rows(table: TableClient, filter?: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const e of table.listEntities<Record<string, unknown>>(filter ? { queryOptions: { filter } } : {})) {
    const { etag: _e, timestamp: _t, ...row } = e;
    out.push(row);
  }
  return out;
}

/** The kinds of rows (`r`, `i`, `k`, `g`, `v`) of a holding's partition of the treatments' table in an account. */
async function holdingRowKinds(account: number, rea: string): Promise<string[]> {
  const table = await tables.accountTable(account, phytoEntry.table);
  const found = await rows(table, odata`PartitionKey eq ${holdingPartition({ rea, farmId: 0 })}`);
  return [...new Set(found.map((r) => String(r.rowKey).slice(0, 1)))].sort();
}

it("keeps every row of a farm in its account and none in the other, and what is no farm's in the first", async () => {
  expect([hashedAccount(FIRST, 2), hashedAccount(SECOND, 2)]).toEqual([0, 1]);
  await register(FIRST);
  await register(SECOND);
  // Records, pointers, idempotency entries, history rows and versions: the farm's partition, whole, in one account.
  expect(await holdingRowKinds(0, FIRST)).toEqual(['g', 'i', 'k', 'r', 'v']);
  expect(await holdingRowKinds(1, FIRST)).toEqual([]);
  expect(await holdingRowKinds(1, SECOND)).toEqual(['g', 'i', 'k', 'r', 'v']);
  expect(await holdingRowKinds(0, SECOND)).toEqual([]);
  // The accounts recorded by the import, the clients, farms and counters in the first account alone.
  const recorded = await rows(await tables.table(TABLES.farmAccounts));
  expect(recorded.map((r) => [r.partitionKey, r.account])).toEqual([
    [FIRST, 0],
    [SECOND, 1],
  ]);
  for (const name of [TABLES.clients, TABLES.farms, TABLES.counters, TABLES.farmAccounts])
    expect(await rows(await tables.accountTable(1, name))).toEqual([]);
});

it('keeps a farm in its recorded account when accounts are added, and across restarts; two processes agree', async () => {
  // A third account configured later: the hash over three would send SECOND to account 0, its record keeps it in 1.
  expect(hashedAccount(SECOND, 3)).toBe(0);
  const later = new FarmAccounts(() => tables.table(TABLES.farmAccounts), 3);
  expect(await later.of(SECOND)).toBe(1);
  expect(await later.of(FIRST)).toBe(0);
  // A restarted process (a new store) reads the farm's records where they are.
  const restarted = createServices(settingsOf([first.connectionString, second.connectionString]), systemClock);
  const { farm } = await farmOf(SECOND);
  expect((await restarted.kinds.of(phytoEntry).store.listKeys(farm.meta)).length).toBeGreaterThan(0);
  // A farm met by two processes of different counts at once: the first record stands, both answer it.
  const rea = 'ES280790000005';
  const [a, b] = await Promise.all([
    new FarmAccounts(() => tables.table(TABLES.farmAccounts), 2).of(rea),
    new FarmAccounts(() => tables.table(TABLES.farmAccounts), 3).of(rea),
  ]);
  expect(a).toBe(b);
  expect(await later.recorded(rea)).toBe(a);
});

it('exports a farm of the second account: the job in the first, its records marked exported where they are', async () => {
  const ids = [await register(SECOND), await register(SECOND)];
  const kinds = await svc.exportKinds();
  const { me, farm, agrifarmId } = await farmOf(SECOND);
  const { jobId } = await startExport(
    { kinds, jobs: svc.jobs, watch: svc.watch, enqueue: async () => undefined },
    me,
    farm,
    agrifarmId,
    ids.map((id) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
    await svc.jobIds.take(),
  );
  const siex = simulatorIuws(
    sim.url,
    kinds.all().map((k) => k.cue),
  );
  await runExportJob(inProcessWorker(svc, kinds, { siex, mailer: { send: async () => undefined } }), jobId);
  expect(resultOf((await svc.jobs.load(jobId))!).error).toEqual([]);
  const job = odata`PartitionKey eq ${`j${jobId}`}`;
  expect((await rows(await tables.table(TABLES.jobs), job)).length).toBeGreaterThan(0);
  expect(await rows(await tables.accountTable(1, TABLES.jobs))).toEqual([]);
  const marked = await rows(
    await tables.accountTable(1, phytoEntry.table),
    odata`PartitionKey eq ${holdingPartition(farm.meta)} and exported eq ${'1'}`,
  );
  // Each record and its pointer.
  expect(marked.map((r) => String(r.rowKey).slice(0, 1)).sort()).toEqual(['i', 'i', 'r', 'r']);
});

it('backs up every account and restores the tables of each into the account of the same number', async () => {
  const before = {
    firstHolding: await rows(await tables.accountTable(0, phytoEntry.table)),
    secondHolding: await rows(await tables.accountTable(1, phytoEntry.table)),
    accounts: await rows(await tables.table(TABLES.farmAccounts)),
  };
  // A farm table, and two of the first account's alone (every table would take the catalogues' many rows twice).
  const manifest = await takeBackup({
    tables,
    tableNames: [phytoEntry.table, TABLES.jobs, TABLES.farmAccounts],
    farmTables: FARM_TABLES,
    container,
    now: () => new Date(),
  });
  expect(manifest.tables.filter((t) => t.name === phytoEntry.table).map((t) => t.account ?? 0)).toEqual([0, 1]);
  expect(manifest.tables.filter((t) => t.name === TABLES.jobs).map((t) => t.account ?? 0)).toEqual([0]);
  // Since: a treatment on each farm.
  await register(FIRST);
  await register(SECOND);
  // A target of one account cannot take the second account's tables: refused before anything is written.
  await expect(
    restoreBackup(
      { tables: new TableStore(settingsOf([first.connectionString])), tableNames: GATEWAY_TABLES, container },
      manifest.snapshot,
    ),
  ).rejects.toThrow(/storage account 1 .* the target has 1 .*nothing was written/);
  const report = await restoreBackup({ tables, tableNames: GATEWAY_TABLES, container }, manifest.snapshot, {
    replace: true,
  });
  expect(report.map((r) => r.table)).toEqual(expect.arrayContaining([phytoEntry.table, `${phytoEntry.table}@1`]));
  expect(await rows(await tables.accountTable(0, phytoEntry.table))).toEqual(before.firstHolding);
  expect(await rows(await tables.accountTable(1, phytoEntry.table))).toEqual(before.secondHolding);
  expect(await rows(await tables.table(TABLES.farmAccounts))).toEqual(before.accounts);
});
