import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';
import { FarmStore } from '../farms/farm-store';
import { PhytoStore } from '../phyto/phyto-store';
import { cueDocument, TratamFito } from '../siex/cue-mapping';
import { JobBatch, JobError } from './job';
import { JobRun, Outcome } from './job-run';
import { finalStatus, isSettled } from './job-status';
import { JobStore } from './job-store';
import { resultOf } from './job-views';
import { recordOutcome } from './record-outcome';
import { outcomeMail } from './outcome-email';

/** What the worker needs of SIEX (the IUWS client) and of the mail service; tests may pass their own. */
export interface SiexPort {
  submit(document: unknown, idempotencyKey: string): Promise<string>;
  status(requestId: string): Promise<{
    state: 'pending' | 'done';
    results: { externalId: number; ok: boolean; errors: { code: string; message: string }[] }[];
  }>;
}

export interface MailPort {
  send(message: { to: string; subject: string; text: string; html: string }, operationId: string): Promise<void>;
}

export interface WorkerDeps {
  jobs: JobStore;
  phyto: PhytoStore;
  farms: FarmStore;
  siex: SiexPort;
  mailer: MailPort;
  /** Records per SIEX submission. */
  batchSize: number;
  /** Polling of SIEX's outcome: first delay, longest delay, and how long before giving the message back to the queue. */
  poll: { firstMs: number; maxMs: number; deadlineMs: number };
  sleep?: (ms: number) => Promise<void>;
  now?: () => DateTime;
}

/**
 * Whether a failure should give the message back to the queue for a later delivery: everything except an error that
 * says retrying cannot help (SIEX refused the document, the credentials, or is not configured; a bad e-mail address).
 */
export function isRetryable(e: unknown): boolean {
  return (e as { retryable?: unknown } | null)?.retryable !== false;
}

/** SIEX refused the document itself: its records carry the refusal, and the job goes on with other batches. */
function refusesDocument(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'SIEX_REJECTED';
}

function failure(e: unknown, fallback: string): { code: string; message: string } {
  const code = (e as { code?: unknown } | null)?.code;
  return { code: typeof code === 'string' ? code : fallback, message: (e as Error).message };
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs one delivery of an export job's queue message. Every step is recorded in the job's partition before the next
 * one starts, so a redelivery after a crash resumes where the last one stopped: a batch is written as `submitting`
 * with its idempotency key before it is sent, and sent again only with that same key, so SIEX receives each record
 * at most once per job; outcomes already applied are applied again harmlessly. The job is read once per delivery.
 */
export async function runExportJob(deps: WorkerDeps, jobId: number): Promise<void> {
  const job = await deps.jobs.load(jobId);
  if (!job) return;
  const run = new JobRun(deps.jobs, job);
  if (!isSettled(run.state.status)) {
    try {
      await advance(deps, run);
    } catch (e) {
      if (!isRetryable(e)) {
        // Another delivery would fail the same way (SIEX not configured, credentials refused): the job cannot run.
        await settleFailed(deps, run, failure(e, 'SIEX_ERROR'));
      } else {
        // Remembered so that the poison handler can say why, if every delivery fails the same way.
        await run.update({ lastError: failure(e, 'WORKER_ERROR') });
        throw e;
      }
    }
  }
  await notify(deps, run);
}

/** The poison queue's handler: a job whose every delivery failed settles as Fallido, and its owner is told. */
export async function failExportJob(deps: Pick<WorkerDeps, 'jobs' | 'phyto' | 'mailer'>, jobId: number): Promise<void> {
  const job = await deps.jobs.load(jobId);
  if (!job) return;
  const run = new JobRun(deps.jobs, job);
  if (!isSettled(run.state.status)) {
    const last = run.state.lastError;
    const error = {
      code: last?.code ?? 'WORKER_FAILED',
      message: `the export could not complete after repeated attempts${last ? `: ${last.message}` : ''}`,
    };
    await settleFailed(deps, run, error);
  }
  await notify(deps, run);
}

/**
 * Settles a job that cannot go on as Fallido. Records already in a submitted batch may well be accepted by SIEX: they
 * are settled as OUTCOME_UNKNOWN and their export is blocked, so that nobody sends them a second time unknowingly.
 */
async function settleFailed(deps: Pick<WorkerDeps, 'phyto'>, run: JobRun, error: JobError): Promise<void> {
  const unknown = run.batches
    .filter((b) => b.state === 'submitted')
    .flatMap((b) =>
      b.recordIds
        .filter((id) => run.item(id).state === 'pending')
        .map((id): [number, Outcome] => [
          id,
          {
            state: 'error',
            code: 'OUTCOME_UNKNOWN',
            message: `sent to SIEX (request ${b.requestId}) but its outcome never came back; check SIEX before exporting it again`,
          },
        ]),
    );
  if (unknown.length > 0) {
    await deps.phyto.markOutcomeUnknown(
      run.farm,
      unknown.map(([id]) => id),
      run.jobId,
    );
    await run.settle(unknown);
  }
  const { status } = run.state;
  if (status === 'Iniciando' || status === 'EnProceso')
    await run.transition({ from: status, to: 'Fallido' }, { error });
}

async function advance(deps: WorkerDeps, run: JobRun): Promise<void> {
  // Under the ETag read: an export that found this start abandoned may have settled it meanwhile, freeing its records.
  if (run.state.status === 'Iniciando' && !(await run.transition({ from: 'Iniciando', to: 'EnProceso' }, {}, true)))
    return;
  const farm = await deps.farms.index(run.state.farmId);
  if (!farm) {
    await run.transition(
      { from: 'EnProceso', to: 'Fallido' },
      { error: { code: 'FARM_NOT_FOUND', message: 'the farm is no longer registered' } },
    );
    return;
  }
  await batchPendingRecords(deps, run, farm);
  for (const batch of run.batches.filter((b) => b.state === 'submitting')) {
    await run.readRecords(deps.phyto, batch.recordIds);
    await submitBatch(deps, run, farm, batch);
  }
  // Every batch is polled to its end before a failure is passed on: no batch keeps writing under a redelivery.
  const polled = await Promise.allSettled(
    run.batches.filter((b) => b.state === 'submitted').map((b) => settleBatch(deps, run, farm, b)),
  );
  const failed = polled.find((p): p is PromiseRejectedResult => p.status === 'rejected');
  if (failed) throw failed.reason;

  const { settled, accepted } = run.counts();
  if (settled === run.allItems().length) {
    await run.transition({ from: 'EnProceso', to: finalStatus(accepted, run.state.total) }, { settled, accepted });
  }
}

/** Maps the records not yet in a batch; those SIEX could not take are settled now, the rest go into new batches. */
async function batchPendingRecords(deps: WorkerDeps, run: JobRun, farm: FarmIndex): Promise<void> {
  const pending = run.unbatched();
  if (pending.length === 0) return;
  await run.readRecords(deps.phyto, pending);
  const unsendable: [number, Outcome][] = [];
  const sendable: number[] = [];
  for (const id of pending) {
    const mapped = run.cue(id, farm);
    if (mapped.ok) sendable.push(id);
    else
      unsendable.push([
        id,
        { state: 'error', code: 'MISSING_DATA', message: `not sent to SIEX: missing ${mapped.missing.join('; ')}` },
      ]);
  }
  if (unsendable.length > 0) {
    await run.settle(unsendable);
    await run.saveCounts();
  }
  const next = run.batches.length;
  const fresh: JobBatch[] = [];
  for (let i = 0; i < sendable.length; i += deps.batchSize) {
    const n = next + fresh.length;
    fresh.push({
      n,
      key: `job-${run.jobId}-batch-${n}`,
      requestId: '',
      state: 'submitting',
      recordIds: sendable.slice(i, i + deps.batchSize),
    });
  }
  await run.saveBatches(fresh);
}

async function submitBatch(deps: WorkerDeps, run: JobRun, farm: FarmIndex, batch: JobBatch): Promise<void> {
  const blocks: TratamFito[] = [];
  for (const id of batch.recordIds) {
    const mapped = run.cue(id, farm);
    if (mapped.ok) blocks.push(...mapped.blocks);
  }
  let requestId: string;
  try {
    requestId = await deps.siex.submit(cueDocument(farm, blocks), batch.key);
  } catch (e) {
    if (!refusesDocument(e)) throw e;
    // SIEX refused the whole document: each of its records carries the refusal.
    await run.settle(
      batch.recordIds.map((id) => [id, { state: 'error', code: 'SIEX_REJECTED', message: (e as Error).message }]),
    );
    await run.saveCounts();
    await run.saveBatches([{ ...batch, state: 'done' }]);
    return;
  }
  await run.saveBatches([{ ...batch, requestId, state: 'submitted' }]);
}

async function settleBatch(deps: WorkerDeps, run: JobRun, farm: FarmIndex, batch: JobBatch): Promise<void> {
  const sleep = deps.sleep ?? delay;
  const started = Date.now();
  let wait = deps.poll.firstMs;
  let outcome = await deps.siex.status(batch.requestId);
  while (outcome.state !== 'done') {
    if (Date.now() - started > deps.poll.deadlineMs)
      throw new Error(`SIEX has not finished request ${batch.requestId} yet`);
    await sleep(wait);
    wait = Math.min(wait * 2, deps.poll.maxMs);
    outcome = await deps.siex.status(batch.requestId);
  }
  const results = new Map(outcome.results.map((r) => [r.externalId, r]));
  // Each record was sent as one block per crop and variety: it is accepted when all of them are.
  await run.readRecords(deps.phyto, batch.recordIds);
  const outcomes = batch.recordIds.map((id): [number, Outcome] => [id, recordOutcome(run.blockIds(id, farm), results)]);
  const accepted = outcomes.filter(([, o]) => o.state === 'ok').map(([id]) => id);
  const modified = formatDateTime((deps.now ?? (() => DateTime.now()))());
  const exported = accepted.flatMap((id) => {
    const record = run.record(id);
    return record ? [{ id, recordRowKey: run.item(id).recordRowKey, record }] : [];
  });
  await deps.phyto.markExported(run.farm, exported, {
    jobId: run.jobId,
    clientId: run.state.clientId,
    at: modified,
  });
  await run.settle(outcomes);
  await run.saveBatches([{ ...batch, state: 'done' }]);
  await run.saveCounts();
}

/** A stable UUID per job: the mail service drops a repeat with the same Operation-Id, so the e-mail goes once. */
export function mailOperationId(jobId: number): string {
  const h = createHash('sha256').update(`siex-export-job-${jobId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function notify(deps: Pick<WorkerDeps, 'mailer'>, run: JobRun): Promise<void> {
  const { state } = run;
  if (!isSettled(state.status) || state.emailSent) return;
  const mail = outcomeMail(state, resultOf({ items: new Map(run.allItems().map((i) => [i.recordId, i])) }));
  try {
    await deps.mailer.send({ to: state.notifyEmail, ...mail }, mailOperationId(run.jobId));
  } catch (e) {
    if (isRetryable(e)) throw e;
    // The mail service refused this message for good (e.g. the address): sending again cannot help. The job's
    // outcome stays readable through jobstatus and jobresult; the refusal is kept for operators.
    await run.update({ emailSent: true, emailError: (e as Error).message });
    return;
  }
  await run.update({ emailSent: true });
}
