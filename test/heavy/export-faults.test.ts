import { SubmissionView } from '../../local/siex-simulator/simulator';
import { EXPORT_POISON_QUEUE, EXPORT_QUEUE } from '../../shared/store/queues';
import { PrivatePipeline, PrivateRunner, startPrivatePipeline } from '../helpers/export-private-stack';
import {
  checkJobResultShape,
  checkJobShape,
  eventually,
  ExportFarm,
  exportFarm,
  gatewayCalls,
  GatewayCalls,
  mailsOfJob,
  problemOf,
  recordNumber,
  registerRecords,
  schemaProblems,
  theOnlyMail,
} from '../helpers/export-stack';
import { partition, testTables } from '../helpers/storage';

/**
 * Issue 4's failure cases end to end: a job still running, SIEX down for a while, SIEX down for good, a poison
 * message, and a worker killed mid-job, on a private pipeline beside the shared stack (export-private-stack.ts): its
 * own SIEX simulator and e-mail stub, and runners reading export queues of their own, on the shared Azurite. So the
 * knobs set here (outages, latency, processing time) reach no other test file, and each test knows which runner
 * process holds its job. Records are registered through the shared gateway; exports go through the private runners.
 * The tests of this file run one after another and leave the knobs at their defaults.
 */

const MAIN = `m${Date.now().toString(36)}`;
let pipe: PrivatePipeline;
let runner: PrivateRunner;
let gw: GatewayCalls;

beforeAll(async () => {
  pipe = await startPrivatePipeline('export-faults');
  runner = await pipe.runner(MAIN);
  gw = gatewayCalls(runner.url);
});

afterAll(async () => {
  await pipe?.stop();
});

/** Knobs back to the simulator's start values after every test (this simulator is ours alone). */
afterEach(() => {
  pipe.siex.state.control({
    outage: false,
    outageUntil: null,
    latencyMs: 0,
    processingMs: 100,
    errorRate: 0,
    failNext: 0,
    throttleNext: 0,
    rejectIds: [],
    crearAnswerDelayMs: 0,
    resetCrearNext: 0,
  });
});

const stats = () => pipe.siex.state.stats();
const submissionsOf = (ids: number[]): SubmissionView[] =>
  pipe.siex.state.listSubmissions(true).filter((s) => s.ids.TratamFito?.some((id) => ids.includes(id)));
const leasesOf = (tag: string, jobId: number, appQueue = EXPORT_QUEUE) =>
  pipe
    .proxy(tag)
    .leases.filter(
      (l) => l.queue === pipe.proxy(tag).queueName(appQueue) && (l.content as { jobId?: number }).jobId === jobId,
    );
const lineCount = (r: PrivateRunner, re: RegExp) => r.lines.filter((l) => re.test(l)).length;

async function started(farm: ExportFarm, urns: string[], calls: GatewayCalls = gw): Promise<number> {
  const res = await calls.exportCue(farm, urns);
  if (res.status !== 202) throw new Error(`export: ${res.status} ${res.text}`);
  return res.json.id;
}

/** The job's SIEX batch rows, as the worker keeps them in the job's partition. */
async function batchRows(jobId: number): Promise<{ state: string; requestId: string }[]> {
  const rows = await partition(testTables(), 'jobs', `j${jobId}`);
  return rows
    .filter((r) => String(r.rowKey).startsWith('b~'))
    .map((r) => ({ state: String(r.state), requestId: typeof r.requestId === 'string' ? r.requestId : '' }));
}

describe('a job still running', () => {
  it('answers jobresult 409 JOB_NOT_FINISHED and a new export of its records 409 RECORD_IN_EXPORT, then completes', async () => {
    const farm = await exportFarm('faults-running');
    const urns = await registerRecords(farm, 2);
    const [fresh] = await registerRecords(farm, 1);
    pipe.siex.state.control({ processingMs: 12_000 });
    const jobId = await started(farm, urns);
    // Once SIEX has the document the job cannot settle for 12 s: time for the requests below on a loaded machine.
    await eventually('the crear', async () => (submissionsOf(urns.map(recordNumber)).length === 1 ? true : undefined));
    const status = await gw.status(farm.keys, jobId);
    expect(checkJobShape(status.json, jobId)).toBe(2);
    expect(status.json.percentage).toBe(0);

    const early = await gw.result(farm.keys, jobId);
    expect(problemOf(early)).toEqual([409, ['JOB_NOT_FINISHED']]);
    expect(early.headers.get('retry-after')).toMatch(/^\d+$/);

    const again = await gw.exportCue(farm, [fresh, ...urns]);
    expect(problemOf(again)).toEqual([409, ['RECORD_IN_EXPORT', 'RECORD_IN_EXPORT']]);
    expect(again.json.errors.map((e: { path: string }) => e.path)).toEqual(['body[1].id', 'body[2].id']);
    expect(again.json.errors[0].message).toContain(String(jobId));

    const { job } = await gw.settled(farm.keys, jobId);
    expect([job.status.name, job.percentage]).toEqual(['FinalizadoCompleto', 100]);
    const result = await gw.result(farm.keys, jobId);
    expect(result.status).toBe(200);
    checkJobResultShape(result.json);
    expect(result.json.data.map((d: { id: number }) => d.id)).toEqual(urns.map(recordNumber));
  });
});

describe('SIEX down, then back', () => {
  it('the job completes through the client’s retries and the queue’s redeliveries (status 3)', async () => {
    const farm = await exportFarm('faults-flaky');
    const urns = await registerRecords(farm, 3);
    const ids = urns.map(recordNumber);
    const failedBefore = lineCount(runner, /exportWorker failed/);
    // Down until a delivery has failed on it, however long the machine takes to get there; then back.
    pipe.siex.state.control({ outage: true });
    const jobId = await started(farm, urns);
    await eventually('a failed delivery', async () =>
      lineCount(runner, /exportWorker failed/) > failedBefore ? true : undefined,
    );
    pipe.siex.state.control({ outage: false });

    const { job } = await gw.settled(farm.keys, jobId);
    expect([job.status.name, job.percentage, job.error]).toEqual(['FinalizadoCompleto', 100, null]);
    // It did meet the outage: SIEX answered 503, and at least one delivery failed and came back.
    const s = stats();
    expect(Object.values(s.status).some((byStatus) => (byStatus['503'] ?? 0) > 0)).toBe(true);
    expect(lineCount(runner, /exportWorker failed/)).toBeGreaterThan(failedBefore);
    expect(leasesOf(MAIN, jobId).map((l) => l.dequeueCount).length).toBeGreaterThan(1);
    // Each record reached SIEX once.
    expect(ids.map((id) => s.records.TratamFito?.[String(id)])).toEqual([1, 1, 1]);
    expect((await gw.result(farm.keys, jobId)).json).toEqual({
      data: ids.map((id) => ({ result: 'ok', id, urn: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
      error: [],
    });
    expect((await theOnlyMail(pipe.mail.url, jobId)).subject).toBe(`SIEX export job ${jobId}: FinalizadoCompleto`);
  });
});

describe('SIEX down for good', () => {
  it('the job ends Fallido with error { code, message } after 5 deliveries and the poison handler; the e-mail says Fallido', async () => {
    const farm = await exportFarm('faults-down');
    const urns = await registerRecords(farm, 2);
    const ids = urns.map(recordNumber);
    pipe.siex.state.control({ outage: true });
    const jobId = await started(farm, urns);

    const { job, seen } = await gw.settled(farm.keys, jobId);
    expect(checkJobShape(job, jobId)).toBe(5);
    expect(job.status.name).toBe('Fallido');
    // Plain words for the client; SIEX's address and its answers go to the log only.
    expect(job.error).toEqual({
      code: 'SIEX_UNAVAILABLE',
      message:
        'the export could not complete after repeated attempts: SIEX was unavailable (it answered with an error, or asked the gateway to slow down)',
    });
    expect(JSON.stringify(job)).not.toContain(new URL(pipe.siex.url).host);
    expect(job.percentage).toBe(0);
    expect(seen.every((st) => [1, 2, 5].includes(st))).toBe(true);
    // Five deliveries of the job's message, then one of its copy on the poison queue.
    await eventually('the poison delivery', async () =>
      leasesOf(MAIN, jobId, EXPORT_POISON_QUEUE).length === 1 ? true : undefined,
    );
    expect(leasesOf(MAIN, jobId).map((l) => l.dequeueCount)).toEqual([1, 2, 3, 4, 5]);

    const result = await gw.result(farm.keys, jobId);
    expect(result.status).toBe(200);
    checkJobResultShape(result.json);
    expect(result.json.data).toEqual([]);
    expect(result.json.error.map((e: { id: number; code: string }) => [e.id, e.code])).toEqual(
      ids.map((id) => [id, 'NOT_PROCESSED']),
    );

    const mail = await theOnlyMail(pipe.mail.url, jobId);
    expect(mail.subject).toBe(`SIEX export job ${jobId}: Fallido`);
    expect(mail.text).toContain('Fallido');
    expect(mail.text).toContain('SIEX_UNAVAILABLE');
    expect(mail.to).toBe(farm.client.email);
    expect(stats().records.TratamFito?.[String(ids[0])]).toBeUndefined();

    // A failed job lets its records go: once SIEX is back they export in a new job.
    pipe.siex.state.control({ outage: false });
    const retry = await started(farm, urns);
    expect((await gw.settled(farm.keys, retry)).job.status.name).toBe('FinalizadoCompleto');
  });
});

describe('a poison message', () => {
  it('settles a job stuck in EnProceso as Fallido with one e-mail; the stuck message then changes nothing', async () => {
    const farm = await exportFarm('faults-poison');
    const urns = await registerRecords(farm, 2);
    const workerOk = new RegExp(`queue ${EXPORT_QUEUE} exportWorker ok`);
    const okBefore = lineCount(runner, workerOk);
    pipe.siex.state.control({ outage: true });
    const jobId = await started(farm, urns);
    await gw.waitFor(farm.keys, jobId, (j) => j.status.id === '2');
    // A second lease means the first delivery has failed and left its error on the job for the poison handler.
    await eventually('a failed delivery', async () => (leasesOf(MAIN, jobId).length >= 2 ? true : undefined));
    expect(leasesOf(MAIN, jobId).length).toBeLessThan(5);

    await pipe.queue(MAIN, EXPORT_POISON_QUEUE).sendMessage(Buffer.from(JSON.stringify({ jobId })).toString('base64'));
    const { job } = await gw.settled(farm.keys, jobId);
    expect(checkJobShape(job, jobId)).toBe(5);
    expect(job.error.code).toBe('SIEX_UNAVAILABLE');
    expect(job.error.message).toContain('repeated attempts');
    expect((await theOnlyMail(pipe.mail.url, jobId, 0)).subject).toBe(`SIEX export job ${jobId}: Fallido`);

    // The job's own message, still being redelivered, finds the job settled at its next delivery: it is done with
    // (SIEX still down), sends nothing to SIEX and no second e-mail.
    await eventually('the stuck message to be consumed', async () =>
      lineCount(runner, workerOk) > okBefore ? true : undefined,
    );
    expect((await gw.status(farm.keys, jobId)).json).toEqual(job);
    expect(await mailsOfJob(pipe.mail.url, jobId)).toHaveLength(1);
    expect(submissionsOf(urns.map(recordNumber))).toEqual([]);
    // Only the message sent to the poison queue was handled there (again, if it came while a delivery ran the job).
    expect(new Set(leasesOf(MAIN, jobId, EXPORT_POISON_QUEUE).map((l) => l.messageId)).size).toBe(1);
  });

  it('ignores a poison message for a job that does not exist (or without a job id), without an error', async () => {
    const poisonOk = new RegExp(`queue ${EXPORT_POISON_QUEUE} exportPoison ok`);
    const okBefore = lineCount(runner, poisonOk);
    const failedBefore = lineCount(runner, /exportPoison failed/);
    const sentBefore = await mailStubCount();
    const poison = pipe.queue(MAIN, EXPORT_POISON_QUEUE);
    await poison.sendMessage(Buffer.from(JSON.stringify({ jobId: 9_876_543_210 })).toString('base64'));
    await poison.sendMessage(Buffer.from(JSON.stringify({ job: 'none' })).toString('base64'));
    await eventually('both poison messages handled', async () =>
      lineCount(runner, poisonOk) >= okBefore + 2 ? true : undefined,
    );
    expect(lineCount(runner, /exportPoison failed/)).toBe(failedBefore);
    expect(runner.lines.some((l) => l.includes('"event":"message.ignored"'))).toBe(true);
    // Nothing left on the poison queue, nothing moved on to a poison queue of its own, no e-mail.
    expect((await poison.peekMessages({ numberOfMessages: 32 })).peekedMessageItems).toEqual([]);
    const poisonOfPoison = pipe.queue(MAIN, `${EXPORT_POISON_QUEUE}-poison`);
    expect((await poisonOfPoison.exists()) ? (await poisonOfPoison.peekMessages()).peekedMessageItems : []).toEqual([]);
    expect(await mailStubCount()).toBe(sentBefore);
  });
});

async function mailStubCount(): Promise<number> {
  const res = await fetch(`${pipe.mail.url}/_inspect/outbox`);
  return ((await res.json()) as unknown[]).length;
}

describe('a worker killed mid-job, the message redelivered', () => {
  /**
   * One crash test: a runner of its own tag takes the job, is SIGKILLed once `crashWhen` resolves, the lease it held is ended
   * (as its time-out would), and a new runner of the same tag gets the message again (dequeue count 2) and finishes.
   */
  async function killedMidJob(
    tag: string,
    crashWhen: (ids: number[], jobId: number) => Promise<unknown>,
    afterKill: (ids: number[], jobId: number) => Promise<unknown> = async () => undefined,
    firstEnv: Record<string, string> = {},
  ) {
    const farm = await exportFarm(`faults-kill-${tag}`);
    const urns = await registerRecords(farm, 4);
    const ids = urns.map(recordNumber);
    const first = await pipe.runnerWith(tag, firstEnv);
    const jobId = await started(farm, urns, gatewayCalls(first.url));
    await crashWhen(ids, jobId);
    await first.child.stop({ signal: 'SIGKILL' });
    expect(first.child.hasExited).toBe(true);
    const job = await gw.status(farm.keys, jobId);
    expect(job.json.status.id).toBe('2');
    await afterKill(ids, jobId);

    const [lease] = leasesOf(tag, jobId);
    expect(lease.dequeueCount).toBe(1);
    pipe.siex.state.control({ latencyMs: 0, processingMs: 100 });
    // Both leases end, as the time running out would: the queue's on the message, and the job's own.
    await pipe.expireLease(lease);
    await pipe.expireJobLease(tag, jobId);
    const second = await pipe.runner(tag);
    const { job: settled } = await gw.settled(farm.keys, jobId);
    expect([settled.status.name, settled.percentage]).toEqual(['FinalizadoCompleto', 100]);
    expect(leasesOf(tag, jobId).map((l) => l.dequeueCount)).toEqual([1, 2]);
    // Every record in exactly one accepted submission.
    const s = stats();
    expect(ids.map((id) => s.records.TratamFito?.[String(id)])).toEqual([1, 1, 1, 1]);
    // This simulator is this file's alone: no record of any of its jobs was ever in two submissions.
    expect(s.duplicates).toEqual([]);
    expect(submissionsOf(ids)).toHaveLength(1);
    expect((await gw.result(farm.keys, jobId)).json).toEqual({
      data: ids.map((id) => ({ result: 'ok', id, urn: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
      error: [],
    });
    expect((await theOnlyMail(pipe.mail.url, jobId)).subject).toBe(`SIEX export job ${jobId}: FinalizadoCompleto`);
    await second.stop();
    return { jobId, ids };
  }

  it('while SIEX is taking the crear (SIEX keeps the document, the answer is lost): the resend is answered from its key', async () => {
    const replaysBefore = stats().replays;
    // SIEX takes the crear as it arrives and holds its answer; the runner, whose own time-out is longer still, is
    // killed once SIEX has the document, so nobody hears the answer, however long the machine takes to get there.
    pipe.siex.state.control({ crearAnswerDelayMs: 30_000 });
    await killedMidJob(
      'k1',
      (ids) => eventually('SIEX to take the crear', async () => (submissionsOf(ids).length === 1 ? true : undefined)),
      async (_ids, jobId) => {
        // The worker wrote the batch with its idempotency key before sending it, and never learnt a request id.
        expect(await batchRows(jobId)).toEqual([{ state: 'submitting', requestId: '' }]);
        pipe.siex.state.control({ crearAnswerDelayMs: 0 });
      },
      { SIEX_TIMEOUT_MS: '120000' },
    );
    // The killed runner's crear was accepted, and the new runner's resend with the same key was a replay.
    expect(stats().replays).toBe(replaysBefore + 1);
  });

  it('while polling SIEX for the outcome: the new runner polls the same request, nothing is sent again', async () => {
    const replaysBefore = stats().replays;
    // Long enough for the batch row to be read and the runner killed before SIEX settles, on a loaded machine too.
    pipe.siex.state.control({ processingMs: 8000 });
    const { jobId } = await killedMidJob('k2', async (ids, id) => {
      await eventually(
        'the batch to be submitted',
        async () => ((await batchRows(id))[0]?.state === 'submitted' ? true : undefined),
        15_000,
        20,
      );
      expect(submissionsOf(ids)).toHaveLength(1);
    });
    expect(stats().replays).toBe(replaysBefore);
    expect((await batchRows(jobId)).map((b) => b.state)).toEqual(['done']);
  });
});

describe('SIEX slower than the gateway’s time-out (issue 15, finding 1)', () => {
  it('settles the records OUTCOME_UNKNOWN, refuses a new export, and learns the outcome from SIEX once it answers in time', async () => {
    const tag = 'slow';
    // A runner that gives SIEX 0.5 s and two tries per call; SIEX takes every crear and answers after 2 s.
    const slow = await pipe.runnerWith(tag, { SIEX_TIMEOUT_MS: '500', SIEX_MAX_ATTEMPTS: '2' });
    const farm = await exportFarm('faults-slow');
    const urns = await registerRecords(farm, 3);
    const ids = urns.map(recordNumber);
    const calls = gatewayCalls(slow.url);
    pipe.siex.state.control({ crearAnswerDelayMs: 2000 });
    const jobId = await started(farm, urns, calls);

    const { job } = await calls.settled(farm.keys, jobId);
    expect([job.status.name, job.error.code]).toEqual(['Fallido', 'SIEX_TIMEOUT']);
    // SIEX has the three records, once each; every resend under the batch's key was a repeat.
    expect(ids.map((id) => stats().records.TratamFito?.[String(id)])).toEqual([1, 1, 1]);
    expect(stats().replays).toBeGreaterThan(0);
    const result = await calls.result(farm.keys, jobId);
    expect(result.json.data).toEqual([]);
    expect(result.json.error.map((e: { id: number; code: string }) => [e.id, e.code])).toEqual(
      ids.map((id) => [id, 'OUTCOME_UNKNOWN']),
    );
    expect(result.json.error[0].message).toContain('may have reached SIEX');
    const mail = await theOnlyMail(pipe.mail.url, jobId, 0);
    expect(mail.subject).toBe(`SIEX export job ${jobId}: Fallido`);
    expect(mail.text).toContain('Outcome not known: 3 (OUTCOME_UNKNOWN)');
    expect(mail.text).not.toContain('NOT_PROCESSED');
    const again = await calls.exportCue(farm, urns);
    expect(problemOf(again)).toEqual([
      409,
      ['RECORD_OUTCOME_UNKNOWN', 'RECORD_OUTCOME_UNKNOWN', 'RECORD_OUTCOME_UNKNOWN'],
    ]);

    // SIEX answers in time again: at its next sweep (every 30 s) the gateway asks it, under the batch's key.
    pipe.siex.state.control({ crearAnswerDelayMs: 0 });
    const known = await eventually(
      'the outcome learnt from SIEX',
      async () => {
        const r = await calls.result(farm.keys, jobId);
        return r.json.data.length === 3 ? r.json : undefined;
      },
      45_000,
      500,
    );
    expect(known).toEqual({
      data: ids.map((id) => ({ result: 'ok', id, urn: `urn:ngsi-ld:AgriPhytosanitary:${id}` })),
      error: [],
    });
    expect(ids.map((id) => stats().records.TratamFito?.[String(id)])).toEqual([1, 1, 1]);
    expect(stats().duplicates).toEqual([]);
    const mails = await eventually('the second e-mail', async () => {
      const all = await mailsOfJob(pipe.mail.url, jobId);
      return all.length === 2 ? all : undefined;
    });
    expect(mails.map((m) => m.subject)).toEqual([
      `SIEX export job ${jobId}: Fallido`,
      `SIEX export job ${jobId}: every outcome is known now`,
    ]);
    expect(problemOf(await calls.exportCue(farm, urns))).toEqual([
      409,
      ['RECORD_ALREADY_EXPORTED', 'RECORD_ALREADY_EXPORTED', 'RECORD_ALREADY_EXPORTED'],
    ]);
    await slow.stop();
  }, 120_000);
});

describe('a worker killed mid-job, and nothing redelivered (issue 15, finding 9)', () => {
  // How soon is the in-process tests' part, on an injected clock (export-lease, export-worker-crashes: the sweep after
  // LEASE_MS without a heartbeat queues the job, one before does not). Here, across real processes, the job's lease is
  // ended as those two minutes would end it, and the restarted runner's own sweeper timer must bring the job back.
  it('the sweeper of the restarted runner resumes the job, polling the same SIEX request', async () => {
    const tag = 'k3';
    const farm = await exportFarm('faults-kill-k3');
    const urns = await registerRecords(farm, 2);
    const ids = urns.map(recordNumber);
    const first = await pipe.runner(tag);
    pipe.siex.state.control({ processingMs: 20_000 });
    const jobId = await started(farm, urns, gatewayCalls(first.url));
    await eventually(
      'the batch to be submitted',
      async () => ((await batchRows(jobId))[0]?.state === 'submitted' ? true : undefined),
      15_000,
      20,
    );
    const replaysBefore = stats().replays;
    await first.child.stop({ signal: 'SIGKILL' });
    // The dead runner's queue message stays leased for 10 minutes: only the sweeper can bring the job back.
    await pipe.expireJobLease(tag, jobId);
    const second = await pipe.runner(tag);
    // The sweeper runs every 30 seconds; the ceiling is one only a hang reaches.
    const { job } = await gw.settled(farm.keys, jobId, { timeoutMs: 150_000 });
    expect([job.status.name, job.percentage]).toEqual(['FinalizadoCompleto', 100]);
    // One lease of the original message (never redelivered), one of the message the sweeper queued.
    expect(leasesOf(tag, jobId).map((l) => l.dequeueCount)).toEqual([1, 1]);
    expect(ids.map((id) => stats().records.TratamFito?.[String(id)])).toEqual([1, 1]);
    expect(stats().replays).toBe(replaysBefore);
    expect(stats().duplicates).toEqual([]);
    const queuedAgain = new RegExp(`"event":"sweep\\.done".*"queued":\\[[^\\]]*\\b${jobId}\\b`);
    expect(second.lines.some((l) => queuedAgain.test(l))).toBe(true);
    expect((await theOnlyMail(pipe.mail.url, jobId)).subject).toBe(`SIEX export job ${jobId}: FinalizadoCompleto`);
    await second.stop();
  }, 180_000);
});

describe('the CUE documents this SIEX received', () => {
  it('every one validates against the official schema 3.11.4', () => {
    const submissions = pipe.siex.state.listSubmissions(true);
    expect(submissions.length).toBeGreaterThanOrEqual(5);
    expect(schemaProblems(submissions)).toEqual([]);
  });
});
