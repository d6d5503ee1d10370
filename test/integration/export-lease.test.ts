import { Services } from '../../shared/app/services';
import { ExportKinds } from '../../shared/export/export-kinds';
import { createLogger } from '../../shared/log/logger';
import { Client } from '../../shared/clients/client-store';
import { HEARTBEAT_MS, JobLease, LEASE_MS, LeaseLost, SWEEP_EVERY_MS } from '../../shared/export/job-lease';
import { WatchStore } from '../../shared/export/job-watch';
import { sweepExportJobs } from '../../shared/export/sweeper';
import { MailPort } from '../../shared/export/notifications';
import { runExportJob, SiexPort, WorkerDeps } from '../../shared/export/worker';
import { FarmIndex } from '../../shared/farms/farm-index';
import { tratamFitoBlocks } from './iuws-fixtures';
import { inProcessExport, inProcessWorker } from '../helpers/phyto-stack';
import { InProcessFarm, inProcessFarm } from '../helpers/in-process-export';
import { ManualClock } from '../helpers/manual-clock';
import { Clock } from '../../shared/time/clock';

/**
 * Issue 15, finding 9, on the real Azurite: a job is run by one delivery at a time (its lease, under the watch row's
 * ETag), the delivery's heartbeat keeps the lease, and a job whose lease ran out is queued again by the sweeper
 * within LEASE_MS + SWEEP_EVERY_MS, while the stalled holder, should it wake up, can write nothing more. The lease's
 * time and heartbeats run on a clock the test moves (ManualClock): each step happens at the instant the test names,
 * however slow the machine.
 */

let svc: Services;
let kinds: ExportKinds;
let me: Client;
let farm: FarmIndex;
let agrifarmId: string;
let t: InProcessFarm;

beforeAll(async () => {
  t = await inProcessFarm('export-lease', 'lease');
  ({ svc, me, farm, agrifarmId } = t);
  kinds = await svc.exportKinds();
});

async function newJob(): Promise<number> {
  return inProcessExport(svc, me, farm, agrifarmId, await t.registerSendable(1));
}

/** SIEX whose crear waits until `open()`. */
function slowSiex() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let entered!: () => void;
  const submitted = new Promise<void>((r) => (entered = r));
  const crears: number[][] = [];
  const port: SiexPort = {
    async ready() {},
    async submit(document) {
      crears.push(tratamFitoBlocks(document).map((b) => b.IdAjenaTratamFito));
      entered();
      await gate;
      return `REQ-${crears.length}`;
    },
    async status() {
      return { state: 'done', results: [] };
    },
  };
  return { port, crears, submitted, open };
}

function deps(siex: SiexPort, logged: string[] = [], clock?: Clock): WorkerDeps {
  const mailer: MailPort = { send: async () => undefined };
  return inProcessWorker(svc, kinds, {
    siex,
    mailer,
    log: createLogger((_level, line) => void logged.push(line)),
    ...(clock ? { clock } : {}),
  });
}

it('two deliveries of one job at once: one runs it, the other leaves it alone and sends nothing', async () => {
  const jobId = await newJob();
  const siex = slowSiex();
  const firstLog: string[] = [];
  const secondLog: string[] = [];
  const first = runExportJob(deps(siex.port, firstLog), jobId);
  await siex.submitted;
  await runExportJob(deps(siex.port, secondLog), jobId);
  expect(secondLog.map((line) => JSON.parse(line) as object)).toEqual([
    expect.objectContaining({
      event: 'job.problem',
      jobId,
      detail: `export job ${jobId} is being run by another delivery; this one leaves it`,
    }),
  ]);
  siex.open();
  await first;
  expect(siex.crears).toHaveLength(1);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoConErrores');
  expect(await svc.watch.read(jobId)).toBeNull();
});

it('the heartbeat keeps the lease; a lease left to run out is taken over, and its holder then writes nothing', async () => {
  const jobId = await newJob();
  // The holder's view of the watch list: the test awaits each heartbeat's write.
  const beats: Promise<unknown>[] = [];
  const holderWatch = Object.assign(Object.create(svc.watch) as WatchStore, {
    renew: (...args: Parameters<WatchStore['renew']>) => {
      const renewed = svc.watch.renew(...args);
      beats.push(renewed.catch(() => undefined));
      return renewed;
    },
  });
  const clock = new ManualClock();
  const held = (await JobLease.take(holderWatch, jobId, clock))!;
  expect((await svc.watch.read(jobId))!.due).toBe(clock.now() + LEASE_MS);
  await clock.advance(HEARTBEAT_MS);
  await Promise.all(beats);
  expect(beats).toHaveLength(1);
  expect((await svc.watch.read(jobId))!.due).toBe(clock.now() + LEASE_MS);
  expect(() => held.check()).not.toThrow();

  // The holder stalls here (its clock and heartbeats stand still); the sweeper's clock runs on from its last beat.
  // A minute without a heartbeat is not enough; two are.
  const sweepAt = async (ms: number) =>
    (
      await sweepExportJobs({
        watch: svc.watch,
        jobs: svc.jobs,
        enqueue: async () => undefined,
        now: () => clock.now() + ms,
      })
    ).queued;
  expect(await sweepAt(60_000)).not.toContain(jobId);
  expect(await sweepAt(LEASE_MS + 1_000)).toContain(jobId);
  // Queued once: the next sweep leaves it for the delivery it queued.
  expect(await sweepAt(LEASE_MS + 1_000)).not.toContain(jobId);
  expect(LEASE_MS + SWEEP_EVERY_MS).toBeLessThanOrEqual(3 * 60_000);

  // The holder wakes up: its next heartbeat finds the row taken, its lease is lost, and so is any write it tries.
  await clock.advance(HEARTBEAT_MS);
  await Promise.all(beats);
  expect(beats).toHaveLength(2);
  expect(held.signal.aborted).toBe(true);
  expect(() => held.check()).toThrow(LeaseLost);
  // A lost lease beats no more.
  expect(clock.pending).toBe(0);

  const siex = slowSiex();
  siex.open();
  await runExportJob(deps(siex.port), jobId);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoConErrores');
  expect(siex.crears).toHaveLength(1);
});

it('a lease whose heartbeats cannot reach storage runs out on its own, and the holder stops', async () => {
  const jobId = await newJob();
  const outage = Object.assign(Object.create(svc.watch) as WatchStore, {
    renew: async () => Promise.reject(new Error('storage is out')),
  });
  const clock = new ManualClock();
  const held = (await JobLease.take(outage, jobId, clock))!;
  await clock.advance(LEASE_MS - 1);
  expect(() => held.check()).not.toThrow();
  await clock.advance(1);
  expect(() => held.check()).toThrow(LeaseLost);
  expect(held.signal.aborted).toBe(true);
  await held.end(null);
  expect(clock.pending).toBe(0);
});

it('a delivery that lost its lease mid-job stops before its next write', async () => {
  const jobId = await newJob();
  const siex = slowSiex();
  const clock = new ManualClock();
  const stalled = runExportJob(deps(siex.port, [], clock), jobId);
  await siex.submitted;
  // The first delivery hangs in crear for 2.5 minutes (a frozen process: no heartbeat in between): its lease runs out,
  // and the sweeper hands the job to another delivery, which finishes it.
  clock.jump(LEASE_MS + SWEEP_EVERY_MS);
  await sweepExportJobs({
    watch: svc.watch,
    jobs: svc.jobs,
    enqueue: async () => undefined,
    now: () => clock.now(),
  });
  const other = slowSiex();
  other.open();
  await runExportJob(deps(other.port, [], clock), jobId);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoConErrores');
  siex.open();
  await expect(stalled).rejects.toThrow(LeaseLost);
  // The batch the stalled delivery had sent was sent again under the same key only: one request id, one batch row.
  const job = (await svc.jobs.load(jobId))!;
  expect(job.batches.map((b) => [b.state, b.key])).toEqual([['done', `job-${jobId}-batch-0`]]);
});
