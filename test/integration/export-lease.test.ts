import { DateTime } from 'luxon';
import { Services } from '../../shared/app/services';
import { Client } from '../../shared/clients/client-store';
import { JobLease, LEASE_MS, LeaseLost, SWEEP_EVERY_MS } from '../../shared/export/job-lease';
import { WatchStore } from '../../shared/export/job-watch';
import { sweepExportJobs } from '../../shared/export/sweeper';
import { MailPort, runExportJob, SiexPort, WorkerDeps } from '../../shared/export/worker';
import { FarmIndex } from '../../shared/farms/farm-index';
import { tratamFitoBlocks } from '../../local/siex-simulator/simulator';
import { inProcessExport } from '../helpers/phyto-stack';
import { InProcessFarm, inProcessFarm } from '../helpers/in-process-export';

/**
 * Issue 15, finding 9, on the real Azurite: a job is run by one delivery at a time (its lease, under the watch row's
 * ETag), the delivery's heartbeat keeps the lease, and a job whose lease ran out is queued again by the sweeper
 * within LEASE_MS + SWEEP_EVERY_MS, while the stalled holder, should it wake up, can write nothing more.
 */
jest.setTimeout(60_000);

let svc: Services;
let me: Client;
let farm: FarmIndex;
let agrifarmId: string;
let t: InProcessFarm;

beforeAll(async () => {
  t = await inProcessFarm('export-lease', 'lease');
  ({ svc, me, farm, agrifarmId } = t);
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

function deps(siex: SiexPort, logged: string[] = [], now?: () => DateTime): WorkerDeps {
  const mailer: MailPort = { send: async () => undefined };
  return {
    jobs: svc.jobs,
    watch: svc.watch,
    phyto: svc.phyto,
    farms: svc.farms,
    siex,
    mailer,
    batchSize: 10,
    poll: { firstMs: 1, maxMs: 2, deadlineMs: 1000 },
    log: (line) => void logged.push(line),
    ...(now ? { now } : {}),
  };
}

it('two deliveries of one job at once: one runs it, the other leaves it alone and sends nothing', async () => {
  const jobId = await newJob();
  const siex = slowSiex();
  const firstLog: string[] = [];
  const secondLog: string[] = [];
  const first = runExportJob(deps(siex.port, firstLog), jobId);
  await siex.submitted;
  await runExportJob(deps(siex.port, secondLog), jobId);
  expect(secondLog).toEqual([`export job ${jobId} is being run by another delivery; this one leaves it`]);
  siex.open();
  await first;
  expect(siex.crears).toHaveLength(1);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoConErrores');
  expect(await svc.watch.read(jobId)).toBeNull();
});

it('the heartbeat keeps the lease; a lease left to run out is taken over, and its holder then writes nothing', async () => {
  const jobId = await newJob();
  // The holder's view of the watch list: while `stall` is pending its heartbeats hang, as a frozen process's would.
  // (A holder still beating would rightly keep its job, and every 50 ms beat would race the sweeps below.)
  let stall: Promise<void> = Promise.resolve();
  let landed: Promise<unknown> = Promise.resolve();
  const holderWatch = Object.assign(Object.create(svc.watch) as WatchStore, {
    renew: async (...args: Parameters<WatchStore['renew']>) => {
      await stall;
      const renewed = svc.watch.renew(...args);
      landed = renewed.catch(() => undefined);
      return renewed;
    },
  });
  const held = (await JobLease.take(holderWatch, jobId, Date.now, 50))!;
  const dueAtTake = (await svc.watch.read(jobId))!.due;
  await new Promise((r) => setTimeout(r, 300));
  expect((await svc.watch.read(jobId))!.due).toBeGreaterThan(dueAtTake);
  expect(() => held.check()).not.toThrow();

  let wake!: () => void;
  stall = new Promise((r) => (wake = r));
  // A beat already past the stall lands before the sweeps.
  for (let seen: Promise<unknown> | undefined; seen !== landed;) {
    seen = landed;
    await seen;
    await new Promise((r) => setTimeout(r, 10));
  }

  // A minute without a heartbeat is not enough; two are.
  const sweepAt = async (ms: number) =>
    (
      await sweepExportJobs({
        watch: svc.watch,
        jobs: svc.jobs,
        enqueue: async () => undefined,
        now: () => Date.now() + ms,
      })
    ).queued;
  expect(await sweepAt(60_000)).not.toContain(jobId);
  expect(await sweepAt(LEASE_MS + 1_000)).toContain(jobId);
  // Queued once: the next sweep leaves it for the delivery it queued.
  expect(await sweepAt(LEASE_MS + 1_000)).not.toContain(jobId);
  expect(LEASE_MS + SWEEP_EVERY_MS).toBeLessThanOrEqual(3 * 60_000);

  // The holder wakes up: its next heartbeat finds the row taken, its lease is lost, and so is any write it tries.
  wake();
  const deadline = Date.now() + 10_000;
  while (!held.signal.aborted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(() => held.check()).toThrow(LeaseLost);

  const siex = slowSiex();
  siex.open();
  await runExportJob(deps(siex.port), jobId);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoConErrores');
  expect(siex.crears).toHaveLength(1);
});

it('a delivery that lost its lease mid-job stops before its next write', async () => {
  const jobId = await newJob();
  const siex = slowSiex();
  const later = () => DateTime.now().plus({ milliseconds: LEASE_MS + SWEEP_EVERY_MS });
  let stalledFor = 0;
  const stalled = runExportJob(
    deps(siex.port, [], () => DateTime.now().plus({ milliseconds: stalledFor })),
    jobId,
  );
  await siex.submitted;
  // The first delivery hangs in crear for 2.5 minutes: its lease runs out, and the sweeper hands the job to another
  // delivery, which finishes it.
  stalledFor = LEASE_MS + SWEEP_EVERY_MS;
  await sweepExportJobs({
    watch: svc.watch,
    jobs: svc.jobs,
    enqueue: async () => undefined,
    now: () => later().toMillis(),
  });
  const other = slowSiex();
  other.open();
  await runExportJob(deps(other.port, [], later), jobId);
  expect((await svc.jobs.meta(jobId))!.status).toBe('FinalizadoConErrores');
  siex.open();
  await expect(stalled).rejects.toThrow(LeaseLost);
  // The batch the stalled delivery had sent was sent again under the same key only: one request id, one batch row.
  const job = (await svc.jobs.load(jobId))!;
  expect(job.batches.map((b) => [b.state, b.key])).toEqual([['done', `job-${jobId}-batch-0`]]);
});
