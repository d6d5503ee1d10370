import { DateTime } from 'luxon';
import { ExportKinds } from '../../shared/export/export-kinds';
import { Services } from '../../shared/app/services';
import { Client } from '../../shared/clients/client-store';
import { DomainError } from '../../shared/domain/errors';
import { exportRecords } from '../../shared/export/export-service';
import { CLAIM_GRACE_MS } from '../../shared/export/job-claims';
import { IN_FLIGHT_WAIT_MS, STALE_PENDING_MS } from '../../shared/export/export-idempotency';
import { FarmIndex } from '../../shared/farms/farm-index';
import { idempotencyHash, requestFingerprint } from '../../shared/idempotency/idempotency';
import { PhytoStore } from '../../shared/phyto/phyto-store';
import { asExportReply, inProcessExport } from '../helpers/phyto-stack';
import { InProcessFarm, inProcessFarm } from '../helpers/in-process-export';
import { claimOf } from '../../shared/records/export-state';
import { ExportMarks } from '../../shared/records/export-marks';
import { startAnswer } from '../../shared/http/job-answers';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Issue 15, finding 4 (and the export limit of finding 3) on the real Azurite: an export claims its records before it
 * creates its job, all or none; a claim left by an export that died is freed after CLAIM_GRACE_MS, in a way that
 * stops that export should it wake up; a key left pending by a request that died is answered with the job it
 * created, or taken over; and ids that are not the farm's cost no per-id storage read.
 */

let svc: Services;
let kinds: ExportKinds;
let me: Client;
let farm: FarmIndex;
let agrifarmId: string;
let t: InProcessFarm;

beforeAll(async () => {
  t = await inProcessFarm('export-start', 'export-start', 8);
  ({ svc, me, farm, agrifarmId } = t);
  kinds = await svc.exportKinds();
});

afterEach(() => jest.restoreAllMocks());

const records = (n: number) => t.registerSendable(n);

/** What the export operation takes beside the services, its queue doing nothing. */
const exporting = () => ({
  kinds,
  farms: svc.farms,
  keys: svc.exportKeys,
  enqueue: async () => undefined,
  jobIds: svc.jobIds,
  startAnswer,
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    (v) => v,
    (e: unknown) => {
      if (!(e instanceof DomainError)) throw e;
      return [...new Set(e.violations.map((v) => v.code))];
    },
  );

it('claims all or none: a conflict in a later chunk gives back what the earlier chunks took', async () => {
  const ids = await records(130);
  const pointers = [...(await svc.kinds.of(phytoEntry).store.readPointers(farm.meta, ids)).values()].sort(
    (a, b) => a.id - b.id,
  );
  // Another export takes the last record after this one read it: the second chunk of the claim fails.
  await new ExportMarks(svc.kinds.of(phytoEntry).store).claim(farm.meta, [pointers.at(-1)!], {
    jobId: 777_000_001,
    at: Date.now(),
    by: me.id,
  });
  await expect(
    new ExportMarks(svc.kinds.of(phytoEntry).store).claim(farm.meta, pointers, {
      jobId: 777_000_002,
      at: Date.now(),
      by: me.id,
    }),
  ).rejects.toThrow();
  const after = await svc.kinds.of(phytoEntry).store.readPointers(farm.meta, ids);
  expect(ids.slice(0, 129).every((id) => claimOf(after.get(id)!.exportState) === null)).toBe(true);
  expect(claimOf(after.get(ids[129])!.exportState)?.jobId).toBe(777_000_001);
});

it('a claim by an export that died before creating its job holds the records for a minute, then frees them for good', async () => {
  const ids = await records(2);
  const dead = await svc.jobIds.take();
  const pointers = [...(await svc.kinds.of(phytoEntry).store.readPointers(farm.meta, ids)).values()];
  await new ExportMarks(svc.kinds.of(phytoEntry).store).claim(farm.meta, pointers, {
    jobId: dead,
    at: Date.now(),
    by: me.id,
  });
  expect(await refusal(inProcessExport(svc, me, farm, agrifarmId, ids))).toEqual(['RECORD_IN_EXPORT']);

  // Later than the grace: the records go to a new job, and the dead export's job id is settled as abandoned, so the
  // export, should it wake up now, can no longer create its job.
  const later = { ...svc, now: () => DateTime.now().plus({ milliseconds: CLAIM_GRACE_MS + 1_000 }) };
  const jobId = asExportReply(
    await exportRecords(
      { ...later, ...exporting() },
      {
        client: me,
        agrifarmId,
        body: ids.map((id) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
        pending: false,
        idempotencyKey: null,
      },
    ),
  );
  expect(jobId.status).toBe(202);
  const abandoned = (await svc.jobs.meta(dead))!;
  // still the job of the client that asked for it, who may have been told its id: it reads Fallido, not 404
  expect([abandoned.status, abandoned.error?.code, abandoned.clientId]).toEqual(['Fallido', 'START_ABANDONED', me.id]);
  // The dead export, waking up, would create its job as it began it: a minute earlier, with its two records.
  const late = { ...abandoned, status: 'Iniciando' as const, error: null, createdAt: Date.now(), total: ids.length };
  const items = pointers.map((p) => ({ recordId: p.id, recordRowKey: p.recordRowKey }));
  await expect(svc.jobs.create(late, items)).rejects.toMatchObject({ statusCode: 409 });
});

it('checks which ids exist without a read per id: 5,000 unknown ids cost the farm key index, no pointer reads', async () => {
  await records(1);
  const pointerReads = jest.spyOn(PhytoStore.prototype, 'readPointers');
  const keyScans = jest.spyOn(PhytoStore.prototype, 'scanKeys');
  const unknown = Array.from({ length: 5000 }, (_, i) => 900_000_000 + i);
  expect(await refusal(inProcessExport(svc, me, farm, agrifarmId, unknown))).toEqual(['RECORD_NOT_FOUND']);
  expect(pointerReads).not.toHaveBeenCalled();
  expect(keyScans.mock.calls.length).toBeLessThanOrEqual(2);
});

describe('an Idempotency-Key left pending by a request that died', () => {
  const input = (ids: number[], key: string) => ({
    client: me,
    agrifarmId,
    body: ids.map((id) => ({ id: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
    pending: false,
    idempotencyKey: key,
  });
  const deps = () => ({ ...svc, ...exporting() });
  const pendingFor = async (ids: number[], key: string, jobId: number, startedAt: number) => {
    const hash = idempotencyHash(me.id, key);
    const requestHash = requestFingerprint({ query: { agrifarmId }, body: input(ids, key).body });
    await svc.exportKeys.begin(farm.meta.farmId, hash, null, { requestHash, jobId, startedAt });
  };

  it('is answered with the job it created, which runs (the sweeper queues it): never a second job', async () => {
    const ids = await records(1);
    const jobId = await inProcessExport(svc, me, farm, agrifarmId, ids);
    const key = `died-after-job-${jobId}`;
    await pendingFor(ids, key, jobId, Date.now() - STALE_PENDING_MS - 1_000);
    const reply = asExportReply(await exportRecords(deps(), input(ids, key)));
    expect([reply.status, JSON.parse(reply.body).id]).toEqual([202, jobId]);
    expect(asExportReply(await exportRecords(deps(), input(ids, key)))).toEqual(reply);
  });

  it('is taken over when that request started nothing', async () => {
    const ids = await records(1);
    const key = `died-before-job-${ids[0]}`;
    await pendingFor(ids, key, await svc.jobIds.take(), Date.now() - STALE_PENDING_MS - 1_000);
    const reply = asExportReply(await exportRecords(deps(), input(ids, key)));
    expect(reply.status).toBe(202);
    expect((await svc.jobs.meta(JSON.parse(reply.body).id))!.total).toBe(1);
  });

  it('while still fresh, makes a retry wait, then answers 409 REQUEST_IN_PROGRESS with Retry-After', async () => {
    const ids = await records(1);
    const key = `in-flight-${ids[0]}`;
    // The retry's clock moves only when it sleeps: it waits IN_FLIGHT_WAIT_MS by its own clock, in no real time.
    let now = Date.now();
    await pendingFor(ids, key, await svc.jobIds.take(), now);
    const slept: number[] = [];
    const retry = {
      ...deps(),
      now: () => DateTime.fromMillis(now),
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
    const e = await exportRecords(retry, input(ids, key)).catch((x: unknown) => x as DomainError);
    expect(e).toBeInstanceOf(DomainError);
    expect([(e as DomainError).violations[0].code, (e as DomainError).retryAfterSeconds]).toEqual([
      'REQUEST_IN_PROGRESS',
      2,
    ]);
    // It looked again and again while the first request could still answer, and not once past IN_FLIGHT_WAIT_MS.
    expect(slept.length).toBeGreaterThan(1);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(IN_FLIGHT_WAIT_MS);
    expect(slept.reduce((a, b) => a + b, 0) - slept.at(-1)!).toBeLessThan(IN_FLIGHT_WAIT_MS);
  });
});
