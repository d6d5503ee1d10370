import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { DateTime } from 'luxon';
import { createUseCases } from '../../shared/app/use-cases';
import { Services } from '../../shared/app/services';
import { BackupLedger } from '../../shared/backup/backup-ledger';
import { backupContainer } from '../../shared/backup/backup-container';
import { restoreBackup, RestoreRefused } from '../../shared/backup/restore';
import { takeBackup } from '../../shared/backup/table-backup';
import { accountTableLabel } from '../../shared/backup/snapshot-format';
import { formatDate } from '../../shared/domain/dates';
import { ExportKinds } from '../../shared/export/export-kinds';
import { startExport } from '../../shared/export/export-service';
import { resultOf } from '../../shared/http/job-answers';
import { runExportJob } from '../../shared/export/worker';
import { SiexPort } from '../../shared/export/siex-port';
import { holdingPartition } from '../../shared/records/record-keys';
import { GATEWAY_TABLES } from '../../shared/app/record-kinds';
import { phytoEntry } from '../../shared/phyto/kind-entry';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';
import { RunningSiexSimulator, startSiexSimulator } from '../../local/siex-simulator/server';
import { runAdminCli } from '../helpers/admin-cli';
import { mineralBody } from '../helpers/fertilization-fixtures';
import { amendFertilization, seedFertilization } from '../helpers/fertilization-store';
import { CueSection } from '../../shared/siex/iuws-protocol';
import { InProcessFarm, inProcessFarm, simulatorIuws } from '../helpers/in-process-export';
import { asReply, inProcessConnection, inProcessServices, inProcessWorker } from '../helpers/phyto-stack';
import { holdingEntities, storageConnection, testTables } from '../helpers/storage';

/**
 * Issue 36, item 1: a restore over a live store. Back up one holding's records, change them (amend, delete, register
 * anew), then restore the holding: without --replace it is refused and nothing is written; with it the holding's
 * partition in every record table comes back as the snapshot had it (a record, its versions and its history rows
 * together: the review saw a record back at version 1 keep its version-2 history row, and every later PATCH answer 503),
 * the deletion made since stays made, and every restored record can then be amended, exported and deleted.
 */
const SCOPE = 'restore-replace';
const CONTAINER = 'restore-replace';
const records = [phytoEntry.table, fertilizationEntry.table];
let t: InProcessFarm;
let sim: RunningSiexSimulator;
let sections: CueSection[];
let container: ContainerClient;
let dir: string;

beforeAll(async () => {
  t = await inProcessFarm('restore-replace', SCOPE);
  sections = (await t.svc.exportKinds()).all().map((k) => k.cue);
  sim = await startSiexSimulator({ knobs: { processingMs: 0 }, log: () => undefined });
  container = backupContainer({ BACKUP_STORAGE: storageConnection(), BACKUP_CONTAINER: CONTAINER });
  dir = mkdtempSync(path.join(tmpdir(), 'siex-restore-'));
});

afterAll(async () => {
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

const yesterday = () => formatDate(DateTime.now().minus({ days: 1 }));
const holding = () => holdingPartition(t.farm.meta);

const iuws = (): SiexPort => simulatorIuws(sim.url, sections);

/** The holding's rows in every record table, without what the service assigns. */
async function holdingRows(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of records)
    out[table] = (await holdingEntities(testTables(), table, t.farm.meta)).map(
      ({ etag: _e, timestamp: _t, ...row }) => row,
    );
  return out;
}

const change = (recordId: number) => ({
  client: t.me,
  agrifarmId: t.agrifarmId,
  recordId,
  ifMatch: null,
  idempotencyKey: null,
});

const treatmentUrn = (id: number) => `urn:ngsi-ld:AgriPhytosanitary:${id}`;
const fertilizationUrn = (id: number) => `urn:ngsi-ld:AgriFertilize:${id}`;

/** Starts a job over the records and runs it to its end against the simulator; its result. */
async function exportNow(svc: Services, kinds: ExportKinds, urns: string[]) {
  const start = { kinds, jobs: svc.jobs, watch: svc.watch, enqueue: async () => undefined };
  const { jobId } = await startExport(
    start,
    t.me,
    t.farm,
    t.agrifarmId,
    urns.map((id) => ({ id })),
    await svc.jobIds.take(),
  );
  await runExportJob(inProcessWorker(svc, kinds, { siex: iuws(), mailer: { send: async () => undefined } }), jobId);
  return resultOf((await svc.jobs.load(jobId))!);
}

it('refuses a restore over the live holding without --replace, writing nothing; with it the holding comes back whole, its deletion since applied again, and every record can be amended, exported and deleted', async () => {
  const svc = t.svc;
  const kinds = await svc.exportKinds();
  const useCases = createUseCases(svc);
  // The holding at the snapshot: two treatments, one exported to SIEX, and a fertilization.
  const [amended, deleted, exported] = await t.registerSendable(3);
  const vine = t.farm.doc.idcps.find((e) => t.farm.cropOf(e).typecropId === '102')!;
  const ferti = await seedFertilization(
    svc,
    t.me,
    t.agrifarmId,
    mineralBody({ dateStart: yesterday(), idcp: [String(vine.idcp)] }),
  );
  expect((await exportNow(svc, kinds, [treatmentUrn(exported)])).error).toEqual([]);
  const ledger = new BackupLedger(testTables());
  const manifest = await takeBackup({
    tables: testTables(),
    tableNames: records,
    // Both are the farms' tables, taken in every data account (the holding's rows are in the farm's).
    farmTables: records,
    container,
    ledger,
    now: () => new Date(),
  });
  const atSnapshot = await holdingRows();

  // Since: an amendment (a version-2 history row), a deletion (an erasure), a registration, a fertilization amended.
  expect(asReply(await useCases.records(phytoEntry).amend({ ...change(amended), patch: { dose: 0.62 } })).status).toBe(
    200,
  );
  expect(asReply(await useCases.records(phytoEntry).delete(change(deleted))).status).toBe(204);
  const [registered] = await t.registerSendable(1);
  await amendFertilization(svc, t.me, t.agrifarmId, ferti, { dose: 250 });
  const live = await holdingRows();

  await expect(
    restoreBackup({ tables: testTables(), tableNames: GATEWAY_TABLES, container }, manifest.snapshot, {
      partition: holding(),
    }),
  ).rejects.toThrow(RestoreRefused);
  expect(await holdingRows()).toEqual(live);
  const refused = await runAdminCli(
    ['restore', '--from', manifest.snapshot, '--farm', t.farm.meta.rea, '--container', CONTAINER],
    inProcessConnection(SCOPE),
    { BACKUP_STORAGE: storageConnection() },
  );
  expect(refused.code).not.toBe(0);
  // The tables are named as the restore names them: in the farm's account, `phyto@1` in the second.
  const account = await testTables().farmAccounts.of(t.farm.meta.rea);
  const tables = records.map((name) => accountTableLabel({ name, account })).join(', ');
  expect(refused.stderr).toContain(`${tables} (partition ${holding()}) hold rows: `);
  expect(refused.stderr).toMatch(/hold rows: .*--replace.*nothing was written/);
  expect(await holdingRows()).toEqual(live);

  const log = path.join(dir, 'deletions.json');
  const restored = await runAdminCli(
    [
      'restore',
      '--from',
      manifest.snapshot,
      '--farm',
      t.farm.meta.rea,
      '--container',
      CONTAINER,
      '--replace',
      '--deletions',
      log,
    ],
    inProcessConnection(SCOPE),
    { BACKUP_STORAGE: storageConnection() },
  );
  expect(restored).toMatchObject({ code: 0 });
  expect(restored.stdout).toMatch(/1 deletion\(s\) made since the snapshot/);
  expect(JSON.parse(readFileSync(log, 'utf8'))).toEqual([
    { table: phytoEntry.table, farmId: t.farm.meta.farmId, id: deleted },
  ]);

  // Applying the log again (after an interruption, the runbook says) changes nothing.
  const again = await runAdminCli(['reapply-deletions', log], inProcessConnection(SCOPE));
  expect(again).toMatchObject({ code: 0 });
  expect(again.stdout).toMatch(/1 deletion\(s\) applied again/);

  // A process started after the restore, as the gateway's next instance would be.
  const after = inProcessServices(0, SCOPE);
  const afterKinds = await after.exportKinds();
  const cases = createUseCases({ ...after, enqueueExport: async () => undefined });
  const rows = await holdingRows();
  // Every row of the snapshot is back but the deleted record's, whose deletion came after: an erasure stays erased.
  expect(rows[fertilizationEntry.table]).toEqual(atSnapshot[fertilizationEntry.table]);
  const history = (await after.kinds.of(phytoEntry).store.readHistory(t.farm.meta, amended))!;
  expect(history.map((v) => v.kind)).toEqual(['created']);
  expect(
    (await after.kinds.of(phytoEntry).store.readApplication(t.farm.meta, deleted, null)).application?.pointer.state,
  ).toBe('deleted');
  expect(
    (await after.kinds.of(phytoEntry).store.readApplication(t.farm.meta, registered, null)).application,
  ).toBeFalsy();

  // Each restored record: amended, exported, deleted.
  for (const id of [amended, exported])
    expect(asReply(await cases.records(phytoEntry).amend({ ...change(id), patch: { dose: 0.62 } })).status).toBe(200);
  await amendFertilization(after, t.me, t.agrifarmId, ferti, { dose: 250 });
  const result = await exportNow(after, afterKinds, [
    treatmentUrn(amended),
    treatmentUrn(exported),
    fertilizationUrn(ferti),
  ]);
  expect(result.error).toEqual([]);
  expect(result.data).toHaveLength(3);
  for (const id of [amended, exported]) {
    const reply = asReply(await cases.records(phytoEntry).delete(change(id)));
    expect(reply.status).toBe(202);
    await runExportJob(
      inProcessWorker(after, afterKinds, { siex: iuws(), mailer: { send: async () => undefined } }),
      (JSON.parse(reply.body) as { id: number }).id,
    );
    expect(
      (await after.kinds.of(phytoEntry).store.readApplication(t.farm.meta, id, null)).application?.pointer.state,
    ).toBe('deleted');
  }
  const fertiDeletion = asReply(await cases.records(fertilizationEntry).delete(change(ferti)));
  expect(fertiDeletion.status).toBe(202);
  await runExportJob(
    inProcessWorker(after, afterKinds, { siex: iuws(), mailer: { send: async () => undefined } }),
    (JSON.parse(fertiDeletion.body) as { id: number }).id,
  );
  expect(
    (await after.kinds.of(fertilizationEntry).store.readPointers(t.farm.meta, [ferti])).get(ferti),
  ).toBeUndefined();
});
