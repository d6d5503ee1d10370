import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { PhytoRecord } from '../api/phyto-schemas';
import { formatDateTime } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';
import { FarmStore } from '../farms/farm-store';
import { PhytoStore } from '../phyto/phyto-store';
import { cueDocument, mapRecord, TratamFito } from '../siex/cue-mapping';
import { finalStatus, isSettled } from './job-status';
import { Job, JobBatch, JobItem, JobStore } from './job-store';
import { resultOf } from './job-views';
import { outcomeMail } from './outcome-email';

/** What the worker needs of SIEX (the IUWS client) and of the mail service; tests may pass their own. */
export interface SiexPort {
  submit(document: unknown, idempotencyKey: string): Promise<string>;
  status(requestId: string): Promise<{ state: 'pending' | 'done'; results: { externalId: number; ok: boolean; errors: { code: string; message: string }[] }[] }>;
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
 * at most once per job; outcomes already applied are applied again harmlessly.
 */
export async function runExportJob(deps: WorkerDeps, jobId: number): Promise<void> {
  const job = await deps.jobs.load(jobId);
  if (!job) return;
  if (!isSettled(job.meta.status)) {
    try {
      await advance(deps, job);
    } catch (e) {
      if (!isRetryable(e)) {
        // Another delivery would fail the same way (SIEX not configured, credentials refused): the job cannot run.
        await settleFailed(deps, jobId, failure(e, 'SIEX_ERROR'));
      } else {
        // Remembered so that the poison handler can say why, if every delivery fails the same way.
        await deps.jobs.updateMeta(jobId, { lastError: JSON.stringify(failure(e, 'WORKER_ERROR')) });
        throw e;
      }
    }
  }
  await notify(deps, jobId);
}

/** The poison queue's handler: a job whose every delivery failed settles as Fallido, and its owner is told. */
export async function failExportJob(deps: Pick<WorkerDeps, 'jobs' | 'phyto' | 'mailer'>, jobId: number): Promise<void> {
  const meta = await deps.jobs.meta(jobId);
  if (!meta) return;
  if (!isSettled(meta.status)) {
    const last = meta.lastError ? (JSON.parse(meta.lastError) as { code: string; message: string }) : null;
    const error = { code: last?.code ?? 'WORKER_FAILED', message: `the export could not complete after repeated attempts${last ? `: ${last.message}` : ''}` };
    await settleFailed(deps, jobId, error);
  }
  await notify(deps, jobId);
}

/**
 * Settles a job that cannot go on as Fallido. Records already in a submitted batch may well be accepted by SIEX: they
 * are settled as OUTCOME_UNKNOWN and their export is blocked, so that nobody sends them a second time unknowingly.
 */
async function settleFailed(deps: Pick<WorkerDeps, 'jobs' | 'phyto'>, jobId: number, error: { code: string; message: string }): Promise<void> {
  const job = await deps.jobs.load(jobId);
  if (!job) return;
  const unknown = job.batches
    .filter((b) => b.state === 'submitted')
    .flatMap((b) =>
      b.recordIds
        .map((id) => job.items.get(id)!)
        .filter((item) => item.state === 'pending')
        .map((item) =>
          Object.assign(item, {
            state: 'error' as const,
            code: 'OUTCOME_UNKNOWN',
            message: `sent to SIEX (request ${b.requestId}) but its outcome never came back; check SIEX before exporting it again`,
          }),
        ),
    );
  if (unknown.length > 0) {
    await deps.phyto.markOutcomeUnknown(job.meta.farmId, unknown.map((i) => i.recordId), jobId);
    await deps.jobs.saveItems(jobId, unknown);
  }
  await deps.jobs.updateMeta(jobId, { status: 5, error: JSON.stringify(error) });
}

async function advance(deps: WorkerDeps, job: Job): Promise<void> {
  const { meta } = job;
  if (meta.status === 1) {
    // Under the ETag read: an export that found this start abandoned may have settled it meanwhile, freeing its records.
    const moved = await deps.jobs.updateMeta(meta.jobId, { status: 2 }, meta.etag).then(
      () => true,
      (e: unknown) => {
        if ((e as { statusCode?: number }).statusCode === 412) return false;
        throw e;
      },
    );
    if (!moved) return;
    meta.status = 2;
  }
  const farm = await deps.farms.index(meta.farmId);
  if (!farm) {
    await deps.jobs.updateMeta(meta.jobId, { status: 5, error: JSON.stringify({ code: 'FARM_NOT_FOUND', message: 'the farm is no longer registered' }) });
    return;
  }
  const records = new Map<number, PhytoRecord>();
  const readRecords = async (ids: number[]) => {
    const wanted = ids.filter((id) => !records.has(id));
    if (wanted.length === 0) return;
    const byRowKey = await deps.phyto.readRecords(meta.farmId, wanted.map((id) => job.items.get(id)!.recordRowKey));
    for (const id of wanted) {
      const r = byRowKey.get(job.items.get(id)!.recordRowKey);
      if (r) records.set(id, r);
    }
  };

  await batchPendingRecords(deps, job, farm, records, readRecords);
  for (const batch of job.batches.filter((b) => b.state === 'submitting')) {
    await readRecords(batch.recordIds);
    await submitBatch(deps, job, farm, batch, records);
  }
  // Every batch is polled to its end before a failure is passed on: no batch keeps writing under a redelivery.
  const polled = await Promise.allSettled(job.batches.filter((b) => b.state === 'submitted').map((b) => settleBatch(deps, job, b, records, readRecords)));
  const failed = polled.find((p): p is PromiseRejectedResult => p.status === 'rejected');
  if (failed) throw failed.reason;

  const items = [...job.items.values()];
  if (items.every((i) => i.state !== 'pending')) {
    const accepted = items.filter((i) => i.state === 'ok').length;
    await deps.jobs.updateMeta(meta.jobId, { status: finalStatus(accepted, meta.total), settled: items.length, accepted });
  }
}

/** Maps the records not yet in a batch; those SIEX could not take are settled now, the rest go into new batches. */
async function batchPendingRecords(
  deps: WorkerDeps,
  job: Job,
  farm: FarmIndex,
  records: Map<number, PhytoRecord>,
  readRecords: (ids: number[]) => Promise<void>,
): Promise<void> {
  const batched = new Set(job.batches.flatMap((b) => b.recordIds));
  const pending = [...job.items.values()].filter((i) => i.state === 'pending' && !batched.has(i.recordId)).map((i) => i.recordId).sort((a, b) => a - b);
  if (pending.length === 0) return;
  await readRecords(pending);
  const unsendable: JobItem[] = [];
  const sendable: number[] = [];
  for (const id of pending) {
    const item = job.items.get(id)!;
    const record = records.get(id);
    const mapped = record ? mapRecord(record, id, farm) : { ok: false as const, missing: ['the record no longer exists'] };
    if (mapped.ok) sendable.push(id);
    else unsendable.push(Object.assign(item, { state: 'error' as const, code: 'MISSING_DATA', message: `not sent to SIEX: missing ${mapped.missing.join('; ')}` }));
  }
  if (unsendable.length > 0) {
    await deps.jobs.saveItems(job.meta.jobId, unsendable);
    await saveCounts(deps, job);
  }
  const next = job.batches.length;
  const fresh: JobBatch[] = [];
  for (let i = 0; i < sendable.length; i += deps.batchSize) {
    const n = next + fresh.length;
    fresh.push({ n, key: `job-${job.meta.jobId}-batch-${n}`, requestId: '', state: 'submitting', recordIds: sendable.slice(i, i + deps.batchSize) });
  }
  if (fresh.length > 0) {
    await deps.jobs.saveBatches(job.meta.jobId, fresh);
    job.batches.push(...fresh);
  }
}

async function submitBatch(deps: WorkerDeps, job: Job, farm: FarmIndex, batch: JobBatch, records: Map<number, PhytoRecord>): Promise<void> {
  const blocks: TratamFito[] = [];
  for (const id of batch.recordIds) {
    const mapped = mapRecord(records.get(id)!, id, farm);
    if (mapped.ok) blocks.push(mapped.block);
  }
  try {
    batch.requestId = await deps.siex.submit(cueDocument(farm, blocks), batch.key);
    batch.state = 'submitted';
  } catch (e) {
    if (!refusesDocument(e)) throw e;
    // SIEX refused the whole document: each of its records carries the refusal.
    const items = batch.recordIds.map((id) => Object.assign(job.items.get(id)!, { state: 'error' as const, code: 'SIEX_REJECTED', message: (e as Error).message }));
    await deps.jobs.saveItems(job.meta.jobId, items);
    batch.state = 'done';
    await saveCounts(deps, job);
  }
  await deps.jobs.saveBatches(job.meta.jobId, [batch]);
}

async function settleBatch(
  deps: WorkerDeps,
  job: Job,
  batch: JobBatch,
  records: Map<number, PhytoRecord>,
  readRecords: (ids: number[]) => Promise<void>,
): Promise<void> {
  const sleep = deps.sleep ?? delay;
  const started = Date.now();
  let wait = deps.poll.firstMs;
  let outcome = await deps.siex.status(batch.requestId);
  while (outcome.state !== 'done') {
    if (Date.now() - started > deps.poll.deadlineMs) throw new Error(`SIEX has not finished request ${batch.requestId} yet`);
    await sleep(wait);
    wait = Math.min(wait * 2, deps.poll.maxMs);
    outcome = await deps.siex.status(batch.requestId);
  }
  const results = new Map(outcome.results.map((r) => [r.externalId, r]));
  const items = batch.recordIds.map((id) => {
    const r = results.get(id);
    const item = job.items.get(id)!;
    if (!r) return Object.assign(item, { state: 'error' as const, code: 'NO_RESULT', message: 'SIEX returned no result for this record' });
    if (r.ok) return Object.assign(item, { state: 'ok' as const, code: '', message: '' });
    return Object.assign(item, {
      state: 'error' as const,
      code: r.errors[0]?.code ?? 'SIEX_ERROR',
      message: r.errors.map((e) => e.message).join('; ') || 'rejected by SIEX',
    });
  });
  const accepted = items.filter((i) => i.state === 'ok').map((i) => i.recordId);
  await readRecords(accepted);
  const modified = formatDateTime((deps.now ?? (() => DateTime.now()))());
  await deps.phyto.markExported(
    job.meta.farmId,
    accepted.map((id) => ({ id, recordRowKey: job.items.get(id)!.recordRowKey, record: records.get(id)! })),
    modified,
  );
  await deps.jobs.saveItems(job.meta.jobId, items);
  batch.state = 'done';
  await deps.jobs.saveBatches(job.meta.jobId, [batch]);
  await saveCounts(deps, job);
}

async function saveCounts(deps: WorkerDeps, job: Job): Promise<void> {
  const items = [...job.items.values()];
  await deps.jobs.updateMeta(job.meta.jobId, {
    settled: items.filter((i) => i.state !== 'pending').length,
    accepted: items.filter((i) => i.state === 'ok').length,
  });
}

/** A stable UUID per job: the mail service drops a repeat with the same Operation-Id, so the e-mail goes once. */
export function mailOperationId(jobId: number): string {
  const h = createHash('sha256').update(`siex-export-job-${jobId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function notify(deps: Pick<WorkerDeps, 'jobs' | 'mailer'>, jobId: number): Promise<void> {
  const job = await deps.jobs.load(jobId);
  if (!job || !isSettled(job.meta.status) || job.meta.emailSent) return;
  const mail = outcomeMail(job.meta, resultOf(job));
  try {
    await deps.mailer.send({ to: job.meta.notifyEmail, ...mail }, mailOperationId(jobId));
  } catch (e) {
    if (isRetryable(e)) throw e;
    // The mail service refused this message for good (e.g. the address): sending again cannot help. The job's
    // outcome stays readable through jobstatus and jobresult; the refusal is kept for operators.
    await deps.jobs.updateMeta(jobId, { emailSent: true, emailError: (e as Error).message });
    return;
  }
  await deps.jobs.updateMeta(jobId, { emailSent: true });
}
