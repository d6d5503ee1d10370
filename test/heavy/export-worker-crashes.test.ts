import { Services } from '../../shared/app/services';
import { ExportKind, ExportKinds } from '../../shared/export/export-kinds';
import { kindExport } from '../../shared/app/export-registry';
import { Client } from '../../shared/clients/client-store';
import { LEASE_MS, SWEEP_EVERY_MS } from '../../shared/export/job-lease';
import { Clock, systemClock } from '../../shared/time/clock';
import { sweepExportJobs } from '../../shared/export/sweeper';
import { mailOperationId, MailPort } from '../../shared/export/notifications';
import { runExportJob, WorkerDeps } from '../../shared/export/worker';
import { SiexPort } from '../../shared/export/siex-port';
import { FarmIndex } from '../../shared/farms/farm-index';
import { tratamFitoBlocks } from '../integration/iuws-fixtures';
import { requestFingerprint } from '../../shared/idempotency/idempotency';
import { inProcessExport } from '../helpers/phyto-stack';
import { InProcessFarm, inProcessFarm } from '../helpers/in-process-export';
import { isExported } from '../../shared/records/export-state';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * The export worker against the real Azurite, killed at every step it takes: each storage call, SIEX call and
 * e-mail of a job is in turn the one where the process dies, either before the call does anything or right after
 * it did (its answer lost). Nothing redelivers the message (the dead process's queue lease would hold it for 10
 * minutes): the sweeper must find the job within 3 minutes of the crash (its lease ended 2 minutes after its last
 * heartbeat) and queue it again, and that delivery runs uninterrupted. Whatever the step, the job must end as an
 * uninterrupted run ends (FinalizadoConErrores: one record refused by SIEX, one not sendable), every sendable record
 * must have reached SIEX in exactly one submission, only the accepted ones be exported, and the e-mail go out under
 * one operation id. SIEX and the mail service are in-memory fakes that behave as the real ones on repeats (an
 * idempotency key answers its first request; an Operation-Id is sent once).
 */

class Crash extends Error {
  constructor(where: string) {
    super(`process killed at ${where}`);
  }
}

interface Plan {
  /** Calls left before the crash (the crash is at the one that makes it 0); Infinity: never. */
  left: number;
  mode: 'before' | 'after';
  /** Once crashed, the process is gone: every later call fails too. */
  dead: boolean;
  calls: string[];
  /** Calls started and not yet ended: what the dead process still had in flight lands before the next delivery. */
  inFlight?: Set<Promise<unknown>>;
}

/** Wraps every method of `target` so that the plan can kill the "process" at a given call. */
function killable<T extends object>(name: string, target: T, plan: Plan): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const where = `${name}.${String(prop)}`;
        if (plan.dead) throw new Crash(`${where} (already dead)`);
        plan.calls.push(where);
        const now = --plan.left === 0;
        if (now && plan.mode === 'before') {
          plan.dead = true;
          throw new Crash(where);
        }
        const call = Promise.resolve(value.apply(t, args) as unknown);
        plan.inFlight?.add(call);
        const result = await call.finally(() => plan.inFlight?.delete(call));
        if (now) {
          plan.dead = true;
          throw new Crash(`${where} (done, answer lost)`);
        }
        return result;
      };
    },
  });
}

/** SIEX as the simulator behaves: idempotency keys answer the first request id, records outcomes decided at crear. */
function fakeSiex(rejectIds: Set<number>) {
  const byKey = new Map<string, { id: string; hash: string }>();
  const results = new Map<
    string,
    { externalId: number; section: string; ok: boolean; errors: { code: string; message: string }[] }[]
  >();
  const submissions = new Map<number, number>();
  let n = 0;
  const port: SiexPort = {
    async ready() {},
    async submit(document, key) {
      const hash = requestFingerprint(document);
      const earlier = byKey.get(key);
      if (earlier) {
        if (earlier.hash !== hash)
          throw Object.assign(new Error('409 key reused with another document'), {
            code: 'SIEX_REJECTED',
            retryable: false,
          });
        return earlier.id;
      }
      const id = `REQ-${++n}`;
      byKey.set(key, { id, hash });
      const ids = tratamFitoBlocks(document).map((b) => b.IdAjenaTratamFito);
      for (const i of ids) submissions.set(i, (submissions.get(i) ?? 0) + 1);
      results.set(
        id,
        ids.map((externalId) => ({
          externalId,
          section: 'TratamFito',
          ok: !rejectIds.has(externalId),
          errors: rejectIds.has(externalId) ? [{ code: 'SIM_RECHAZADO', message: 'refused' }] : [],
        })),
      );
      return id;
    },
    async status(requestId) {
      return { state: 'done', results: results.get(requestId) ?? [] };
    },
  };
  return { port, submissions };
}

function fakeMailer() {
  const sent: { to: string; subject: string; operationId: string }[] = [];
  const port: MailPort = {
    async send(message, operationId) {
      if (!sent.some((s) => s.operationId === operationId))
        sent.push({ to: message.to, subject: message.subject, operationId });
      else sent.push({ to: message.to, subject: `(repeat, not sent) ${message.subject}`, operationId });
    },
  };
  return { port, sent };
}

let svc: Services;
let me: Client;
let farm: FarmIndex;
let agrifarmId: string;
let t: InProcessFarm;

beforeAll(async () => {
  // One enclosure per record: the fifth's DGC can leave the REA without touching the others.
  t = await inProcessFarm('export-crash', 'crashes', 5);
  ({ svc, me, farm, agrifarmId } = t);
});

/**
 * A job of 5 records: 3 SIEX accepts, 1 it refuses, and 1 the job cannot send, since its enclosure's DGC left the REA
 * after the job started (the worker reads the farm as `farmAfterStart`); batches of 2.
 */
async function newJob(): Promise<{ jobId: number; sendable: number[]; refused: number; unsendable: number }> {
  const ids = await t.registerSendable(5);
  const jobId = await inProcessExport(svc, me, farm, agrifarmId, ids);
  return { jobId, sendable: ids.slice(0, 4), refused: ids[1], unsendable: ids[4] };
}

const VINE = '102';

/** The farm as the REA has it once the job started: the fifth record's enclosure without its DGC. */
const farmAfterStart = (): WorkerDeps['farms'] => ({
  index: async () => {
    const fifth = farm.doc.idcps.filter((e) => farm.cropOf(e).typecropId === VINE)[4];
    return new FarmIndex({
      ...farm.doc,
      idcps: farm.doc.idcps.map((e) => (e === fifth ? { ...e, dgc: undefined } : e)),
    });
  },
});

/** The treatments as the export takes them, their store's reads and the export's marks on them killable. */
function killableTreatments(plan: Plan): ExportKind {
  const treatments = kindExport(phytoEntry, svc.kinds.of(phytoEntry), svc.reference);
  return {
    ...treatments,
    store: killable('phyto', treatments.store, plan),
    marks: killable('phyto', treatments.marks, plan),
  };
}

function deps(plan: Plan, siex: SiexPort, mailer: MailPort, clock?: Clock): WorkerDeps {
  return {
    jobs: killable('jobs', svc.jobs, plan),
    watch: killable('watch', svc.watch, plan),
    kinds: new ExportKinds([killableTreatments(plan)]),
    farms: killable('farms', farmAfterStart(), plan),
    siex: killable('siex', siex, plan),
    mailer: killable('mail', mailer, plan),
    batchSize: 2,
    poll: { firstMs: 1, maxMs: 5, deadlineMs: 5_000 },
    ...(clock ? { clock } : {}),
  };
}

/** The sweeper's run at its first tick after a lease taken now has run out: 2.5 minutes from now at the latest. */
const RECOVERY_MS = LEASE_MS + SWEEP_EVERY_MS;

/** Runs a job killed at call `at` (1-based) in `mode`, then an uninterrupted delivery; checks the outcome. */
async function crashAndResume(at: number, mode: Plan['mode']): Promise<string> {
  const job = await newJob();
  const siex = fakeSiex(new Set([job.refused]));
  const mail = fakeMailer();
  const plan: Plan = { left: at, mode, dead: false, calls: [], inFlight: new Set() };
  const first = await runExportJob(deps(plan, siex.port, mail.port), job.jobId).then(
    () => 'completed',
    (e: unknown) => (e instanceof Crash ? 'crashed' : Promise.reject(e as Error)),
  );
  // Let whatever the dead process still had in flight land (as requests already sent would).
  await Promise.allSettled([...plan.inFlight!]);
  const where = plan.calls[at - 1] ?? '(past the end)';
  // The next delivery, and the sweep before it, run RECOVERY_MS on: the lease the dead process held has run out.
  const later: Clock = { ...systemClock, now: () => Date.now() + RECOVERY_MS };
  const before = (await svc.jobs.meta(job.jobId))!;
  const { queued } = await sweepExportJobs({
    watch: svc.watch,
    jobs: svc.jobs,
    enqueue: async () => undefined,
    now: () => later.now(),
  });
  if (!(before.status === 'FinalizadoConErrores' && before.emailSent))
    expect([mode, where, queued.includes(job.jobId)]).toEqual([mode, where, true]);
  expect(RECOVERY_MS).toBeLessThanOrEqual(3 * 60_000);
  const second: Plan = { left: Infinity, mode, dead: false, calls: [] };
  await runExportJob(deps(second, siex.port, mail.port, later), job.jobId);

  const label = `${mode} ${where} (call ${at}, first delivery ${first})`;
  const meta = (await svc.jobs.meta(job.jobId))!;
  expect([label, meta.status, meta.settled, meta.accepted, meta.emailSent]).toEqual([
    label,
    'FinalizadoConErrores',
    5,
    3,
    true,
  ]);
  // Each sendable record in exactly one accepted submission; the unsendable one never.
  expect([label, job.sendable.map((id) => siex.submissions.get(id)), siex.submissions.get(job.unsendable)]).toEqual([
    label,
    [1, 1, 1, 1],
    undefined,
  ]);
  // Only the accepted ones exported.
  const pointers = await svc.kinds.of(phytoEntry).store.readPointers(farm.meta, [...job.sendable, job.unsendable]);
  const exported = [...job.sendable, job.unsendable].map((id) => isExported(pointers.get(id)!.exportState));
  expect([label, exported]).toEqual([label, [true, false, true, true, false]]);
  // Nothing left to watch.
  expect([label, await svc.watch.read(job.jobId)]).toEqual([label, null]);
  // The outcome e-mail under the job's one operation id (the mail service sends a repeat of it no more).
  expect([label, [...new Set(mail.sent.map((s) => s.operationId))]]).toEqual([label, [mailOperationId(job.jobId)]]);
  expect([label, mail.sent[0].subject]).toEqual([label, `SIEX export job ${job.jobId}: FinalizadoConErrores`]);
  return where;
}

describe('the export worker killed at any step, then redelivered', () => {
  let steps: string[];

  it('an uninterrupted run: the steps to kill it at', async () => {
    const job = await newJob();
    const siex = fakeSiex(new Set([job.refused]));
    const mail = fakeMailer();
    const plan: Plan = { left: Infinity, mode: 'before', dead: false, calls: [] };
    await runExportJob(deps(plan, siex.port, mail.port), job.jobId);
    steps = plan.calls;
    expect(steps).toContain('siex.submit');
    expect(steps).toContain('phyto.markExported');
    expect(steps).toContain('mail.send');
    expect(steps.filter((s) => s === 'siex.submit')).toHaveLength(2);
    expect((await svc.jobs.meta(job.jobId))!.status).toBe('FinalizadoConErrores');
  });

  it.each(['before', 'after'] as const)(
    'killed %s each call in turn: the job ends the same, every record sent to SIEX once',
    async (mode) => {
      const seen: string[] = [];
      for (let at = 1; at <= steps.length; at++) seen.push(await crashAndResume(at, mode));
      // Concurrent steps (the batches are settled together) may come in another order; every kind was hit.
      expect([...new Set(seen)].sort()).toEqual([...new Set(steps)].sort());
    },
    // About 25 kills and resumes: seconds on a quiet machine, many more beside the long e2e files.
    240_000,
  );
});
