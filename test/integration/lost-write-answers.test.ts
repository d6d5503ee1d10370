import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { Client } from '../../shared/clients/client-store';
import { withIdempotency } from '../../shared/export/export-idempotency';
import { jobMeta } from '../../shared/export/job';
import { FarmIndex } from '../../shared/farms/farm-index';
import { ExportKeyStore } from '../../shared/export/export-keys';
import { JobStore } from '../../shared/export/job-store';
import { TableStore } from '../../shared/store/tables';
import { FaultProxy, startFaultProxy } from '../helpers/fault-proxy';
import { inProcessFarm } from '../helpers/in-process-export';
import { asExportReply, inProcessConnection, partitionRows } from '../helpers/phyto-stack';
import { storageSettings, StorageSettings, testTables } from '../helpers/storage';
import { claimOf } from '../../shared/records/export-state';
import { storedResponseOf } from '../../shared/records/record-rows';
import { ExportMarks } from '../../shared/records/export-marks';
import { LEGACY_JOB_TYPE } from '../../shared/app/record-kinds';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Writes that storage carries out and whose answer is lost (a 503 after the write, as a busy storage or a time-out
 * gives): the SDK retries them and is refused as a conflict. Ids are never handed out twice, so the gateway recognises
 * its own write: an export's Idempotency-Key is not waited on as if another request held it (409 for a minute), a
 * job is not taken for one settled as abandoned (which would leave it unqueued, holding its records), a claim is not
 * taken for a lost race, and a registration is not judged and stored a second time.
 */
/** A fault proxy in front of each data account of the shared stack, in order: a farm's rows are in the farm's. */
let proxies: FaultProxy[];
/** The first account's: jobs and export keys are there whatever the farm. */
let proxy: FaultProxy;
const account = 'devstoreaccount1';
/** The shared stack's accounts with their tables reached through the fault proxies. */
let proxied: StorageSettings;

beforeAll(async () => {
  const connections = storageSettings();
  const tableEndpoint = (conn: string) => /TableEndpoint=([^;]+)/.exec(conn)![1].replace(/\/[^/]+\/?$/, '');
  proxies = await Promise.all(
    (connections.STORAGE_ACCOUNTS?.split(',') ?? [connections.AzureWebJobsStorage]).map((conn) =>
      startFaultProxy(tableEndpoint(conn)),
    ),
  );
  proxy = proxies[0];
  proxied = storageSettings((conn, n) =>
    (n === 0 ? inProcessConnection('lost-answers') : conn).replace(
      /TableEndpoint=[^;]+/,
      `TableEndpoint=${proxies[n].url}/${account}`,
    ),
  );
});

afterAll(() => Promise.all(proxies.map((p) => p.stop())));

/** The requests a proxy answered with an injected 503 since `from`. */
const faultedSince = (from: number, method: string, through = proxy) =>
  through.seen.slice(from).filter((s) => s.method === method && s.answered === 503);

/** The proxy in front of the account the farm's rows are in, found as the gateway finds it. */
const farmProxy = async (farm: { rea: string }) => proxies[await testTables().farmAccounts.of(farm.rea)];

describe("an export's Idempotency-Key", () => {
  let keys: ExportKeyStore;
  let nextJobId = 900_000_000;
  const jobIds = { take: async () => nextJobId++ };
  const client = { id: 'lost-answers' } as Client;

  beforeAll(async () => {
    keys = new ExportKeyStore(new TableStore(proxied));
    // The table exists before any fault is set, so the first insert is the key's.
    await keys.read(1, 'warm-up');
  });

  /** Starts "an export" under `key`; `started` lists the jobs it started, each answering 202 with its id. */
  function exporter() {
    const started: number[] = [];
    const call = async (farmId: number, key: string) =>
      asExportReply(
        await withIdempotency(
          { keys, jobIds },
          farmId,
          client,
          key,
          { body: [{ id: 'urn:ngsi-ld:AgriPhytosanitary:1' }] },
          async (jobId) => {
            started.push(jobId);
            return { outcome: 'started', answerJson: JSON.stringify({ id: jobId }) };
          },
          async () => null,
        ),
      );
    return { started, call };
  }

  const farmId = () => 800_000_000 + Math.floor(Math.random() * 1e8);

  it('written down, its answer lost: the request runs the export itself, and a retry gets the answer', async () => {
    const [farm, key, { started, call }] = [farmId(), randomUUID(), exporter()];
    const from = proxy.seen.length;
    proxy.failNext('POST', `/${account}/jobs`, { status: 503, mode: 'after' });
    // Waiting for itself, it would answer 409 REQUEST_IN_PROGRESS after IN_FLIGHT_WAIT_MS, and so would every retry
    // for a minute, until the entry counted as abandoned.
    const reply = await call(farm, key);
    expect(reply.status).toBe(202);
    expect(faultedSince(from, 'POST')).toHaveLength(1);
    expect(await call(farm, key)).toEqual(reply);
    expect(started).toHaveLength(1);
  });

  it('answer kept, its acknowledgement lost: the request answers 202, not an error, and a retry gets it', async () => {
    const [farm, key, { started, call }] = [farmId(), randomUUID(), exporter()];
    const from = proxy.seen.length;
    proxy.failNext('PUT', `/${account}/jobs(`, { status: 503, mode: 'after' });
    const reply = await call(farm, key);
    expect(reply.status).toBe(202);
    expect(faultedSince(from, 'PUT')).toHaveLength(1);
    expect(await call(farm, key)).toEqual(reply);
    expect(started).toHaveLength(1);
  });
});

describe('a registration', () => {
  it('committed, its answer lost: answered 201 with the record stored, and stored once', async () => {
    const t = await inProcessFarm('lost-answers', 'lost-answers', 1, proxied);
    await t.registerSendable(1); // warms the reference data and the farm, so the next batch is the record's
    const through = await farmProxy(t.farm.meta);
    const from = through.seen.length;
    through.failNext('POST', `/${account}/$batch`, { status: 503, mode: 'after' });
    const [id] = await t.registerSendable(1);
    expect(faultedSince(from, 'POST', through)).toHaveLength(1);
    const pointers = [...(await partitionRows(t.farm.meta)).keys()].filter((k) => k.startsWith('i~'));
    expect(pointers).toHaveLength(2);
    expect(pointers).toContain(`i~${String(id).padStart(10, '0')}`);
  });
});

describe("a deletion job's claim, with the request's Idempotency-Key beside it", () => {
  it('written, its answer lost: the records are taken, and the key holds the answer naming the job', async () => {
    const t = await inProcessFarm('lost-claim', 'lost-answers', 2, proxied);
    const ids = await t.registerSendable(2);
    const pointers = [...(await t.svc.kinds.of(phytoEntry).store.readPointers(t.farm.meta, ids)).values()];
    const jobId = await t.svc.jobIds.take();
    const hash = `lost-claim-${randomUUID()}`;
    const answer = { requestHash: 'r', status: 202, body: JSON.stringify({ id: jobId }) };
    const through = await farmProxy(t.farm.meta);
    const from = through.seen.length;
    through.failNext('POST', `/${account}/$batch`, { status: 503, mode: 'after' });
    // Refused as a lost race, the deletion would answer 409 while its key kept a 202 for a job never created.
    await new ExportMarks(t.svc.kinds.of(phytoEntry).store).claim(
      t.farm.meta,
      pointers,
      { jobId, at: Date.now(), by: t.me.id },
      { ...answer, hash },
    );
    expect(faultedSince(from, 'POST', through)).toHaveLength(1);
    const after = await t.svc.kinds.of(phytoEntry).store.readPointers(t.farm.meta, ids);
    expect(ids.map((id) => claimOf(after.get(id)!.exportState)?.jobId)).toEqual([jobId, jobId]);
    // The entry as its columns keep it (what the store answers is the outcome those columns name).
    const stored = (await t.svc.kinds.of(phytoEntry).store.readApplication(t.farm.meta, ids[0], hash)).idempotency;
    const idempotency = stored && storedResponseOf({ ...stored, hash });
    expect(idempotency).toMatchObject(answer);
  });
});

describe("a job's creation", () => {
  let jobs: JobStore;
  let nextJobId = 910_000_000 + Math.floor(Math.random() * 1e7);
  const farm = { meta: { farmId: 1, rea: 'LOST' } } as FarmIndex;
  const meta = (jobId: number, total: number) =>
    jobMeta(jobId, { id: 'lost-answers', email: '' }, farm, 'urn:ngsi-ld:AgriFarm:1', DateTime.now(), total);
  // 150 records: two transactions, the status row in the first.
  const items = Array.from({ length: 150 }, (_, i) => ({ recordId: i + 1, recordRowKey: `row-${i + 1}` }));

  beforeAll(() => {
    jobs = new JobStore(new TableStore(proxied), LEGACY_JOB_TYPE);
  });

  it.each([
    ['the first transaction (the status row)', 0],
    ['the second transaction (records only)', 1],
  ])('%s written, its answer lost: created whole, not refused', async (_, skip) => {
    const jobId = nextJobId++;
    const from = proxy.seen.length;
    proxy.failNext('POST', `/${account}/$batch`, { status: 503, mode: 'after', skip });
    await jobs.create(meta(jobId, items.length), items);
    expect(faultedSince(from, 'POST')).toHaveLength(1);
    const job = (await jobs.load(jobId))!;
    expect([job.meta.status, job.meta.total, job.items.size]).toEqual(['Iniciando', 150, 150]);
  });

  it('a job settled as abandoned before its creation is still refused (409)', async () => {
    const jobId = nextJobId++;
    await jobs.create({ ...meta(jobId, 0), status: 'Fallido', createdAt: Date.now() - 1 }, []);
    await expect(jobs.create(meta(jobId, items.length), items)).rejects.toMatchObject({ statusCode: 409 });
    expect((await jobs.load(jobId))!.items.size).toBe(0);
  });
});
