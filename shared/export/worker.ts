import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';
import { MailError } from '../email/mailer';
import { FarmStore } from '../farms/farm-store';
import { cueDocument } from '../siex/cue-mapping';
import { IuwsError } from '../siex/iuws-client';
import { ExportKind, ExportKinds } from './export-kinds';
import { JobBatch, JobError, JobItem } from './job';
import { jobProblem, logText, publicFailure } from './job-errors';
import { JobLease, LEASE_MS, LeaseLost } from './job-lease';
import { JobRun, Outcome } from './job-run';
import { finalStatus, isSettled } from './job-status';
import { JobStore } from './job-store';
import { WatchStore } from './job-watch';
import { MailPort, notify, webhookDue } from './notifications';
import { WebhookPort } from '../notify/webhook-sender';
import { BlockResult, recordOutcome } from './record-outcome';
import { byType, RecordRef } from './record-ref';
import { Clock, systemClock } from '../time/clock';
import { Logger, silentLogger } from '../log/logger';
import { LogEvents } from '../log/log-events';

/** What the worker needs of SIEX (the IUWS client) and of the mail service; tests may pass their own. */
export interface SiexPort {
  /** Fails when SIEX cannot be used at all (not configured, credentials refused), before anything is sent. */
  ready(signal?: AbortSignal): Promise<void>;
  submit(document: unknown, idempotencyKey: string, signal?: AbortSignal): Promise<string>;
  status(
    requestId: string,
    signal?: AbortSignal,
  ): Promise<{
    state: 'pending' | 'done';
    /** Each block's verdict, by its section and IdAjena. */
    results: { externalId: number; section: string; ok: boolean; errors: { code: string; message: string }[] }[];
  }>;
}

export interface WorkerDeps {
  jobs: JobStore;
  watch: WatchStore;
  /** The record kinds a job's records may be of, and their stores. */
  kinds: ExportKinds;
  farms: FarmStore;
  siex: SiexPort;
  mailer: MailPort;
  /** Signed webhook deliveries; absent when the gateway has no signing key. */
  webhooks?: WebhookPort;
  /** Records per SIEX submission. */
  batchSize: number;
  /** Polling of SIEX's outcome: first delay, longest delay, and how long before giving the message back to the queue. */
  poll: { firstMs: number; maxMs: number; deadlineMs: number };
  /** The time of the lease and its heartbeat, of SIEX's polling, of the dates written; the real one by default. */
  clock?: Clock;
  /**
   * The job's events (shared/log/log-events.ts): its moves, each SIEX call, the e-mail, and what clients are not shown
   * (SIEX's words, addresses, settings) as `job.problem`.
   */
  log?: Logger;
}

/**
 * Whether a failure should give the message back to the queue for a later delivery: everything except an error that
 * says retrying cannot help (SIEX refused the document, the credentials, or is not configured; a bad e-mail address).
 */
export function isRetryable(e: unknown): boolean {
  return e instanceof IuwsError || e instanceof MailError ? e.retryable : true;
}

/** SIEX refused the request itself (the document, the key, the request id): asking again the same way cannot help. */
function refusedBySiex(e: unknown): e is IuwsError {
  return e instanceof IuwsError && e.code === 'SIEX_REJECTED';
}

/** SIEX's own words on a refusal (its code and description), without the gateway's internals. */
function siexWords(e: IuwsError): string {
  return e.details ? `refused by SIEX: ${e.details.codigo}: ${e.details.descripcion}`.slice(0, 500) : 'refused by SIEX';
}

const UNKNOWN = 'OUTCOME_UNKNOWN';

const isUnknown = (item: JobItem) => item.state === 'error' && item.code === UNKNOWN;

/** After a try that left outcomes unknown, SIEX is asked again after 1 minute, doubling up to an hour. */
export function reconcileDelayMs(tries: number): number {
  return Math.min(60_000 * 2 ** tries, 3_600_000);
}

/**
 * Runs one delivery of an export job's queue message. Every step is recorded in the job's partition before the next
 * one starts, so a redelivery after a crash resumes where the last one stopped: a batch is written as `submitting`
 * with its idempotency key before it is sent, and sent again only with that same key, so SIEX receives each record
 * at most once; outcomes already applied are applied again harmlessly. The delivery holds the job's lease throughout
 * (a second delivery of the same job leaves it alone). A settled job whose outcomes are partly unknown is asked
 * about again (`reconcile`) by the deliveries the sweeper queues for it.
 */
export function runExportJob(deps: WorkerDeps, jobId: number): Promise<void> {
  return withLease(deps, jobId, 'leave', async (run, lease) => {
    if (isSettled(run.state.status)) {
      await reconcile(deps, run, lease.signal);
      return false;
    }
    try {
      await advance(deps, run, lease.signal);
    } catch (e) {
      if (e instanceof LeaseLost || lease.signal.aborted) throw e;
      jobProblem(deps.log, run.jobId, logText(e));
      // Another delivery would fail the same way (SIEX not configured, credentials refused): the job cannot run.
      if (!isRetryable(e)) await settleFailed(deps, run, publicFailure(e));
      else {
        // Remembered so that the poison handler can say why, if every delivery fails the same way.
        await run.update({ lastError: publicFailure(e) });
        throw e;
      }
    }
    return isSettled(run.state.status);
  });
}

/**
 * The poison queue's handler: a job whose every delivery failed settles as Fallido, and its owner is told. While
 * another delivery runs the job, the poison message is given back to come again later (it must not be dropped).
 */
export function failExportJob(deps: WorkerDeps, jobId: number): Promise<void> {
  return withLease(deps, jobId, 'retry', async (run) => {
    if (isSettled(run.state.status)) return false;
    const last = run.state.lastError;
    await settleFailed(deps, run, {
      code: last?.code ?? 'WORKER_FAILED',
      message: `the export could not complete after repeated attempts${last ? `: ${last.message}` : ''}`,
    });
    return true;
  });
}

/**
 * Runs `work` on the job under its lease, then sends the e-mails due and says what the watch list should do next.
 * `work` answers whether it settled the job just now. Without the lease (a live delivery holds the job) nothing runs:
 * that delivery, or the sweeper should it die, sees the job through (`leave`), or this message comes back later
 * (`retry`). A failure frees the job for the queue's next delivery and is passed on.
 */
async function withLease(
  deps: WorkerDeps,
  jobId: number,
  whenHeld: 'leave' | 'retry',
  work: (run: JobRun, lease: JobLease) => Promise<boolean>,
): Promise<void> {
  const clock = deps.clock ?? systemClock;
  const lease = await JobLease.take(deps.watch, jobId, clock);
  if (!lease) {
    const held = `export job ${jobId} is being run by another delivery`;
    if (whenHeld === 'retry') throw new Error(`${held}; this message comes back later`);
    jobProblem(deps.log, jobId, `${held}; this one leaves it`);
    return;
  }
  try {
    const job = await deps.jobs.load(jobId);
    if (!job) return await lease.end(null);
    const log = deps.log ?? silentLogger;
    // The job's row names the request that started it, whatever message brought this delivery.
    await log.within({ correlationId: job.meta.correlationId || undefined }, async () => {
      const run = new JobRun(deps.jobs, job, () => lease.check(), log);
      const settledNow = await work(run, lease);
      await notify({ ...deps, now: () => clock.now() }, run);
      await lease.end(nextLook(run, lease, settledNow, clock.now()));
    });
  } catch (e) {
    await lease.end({ due: clock.now() + LEASE_MS, tries: lease.tries }).catch(() => undefined);
    throw e;
  }
}

/**
 * When the sweeper should look at the job again: to ask SIEX about unknown outcomes, or to deliver a webhook event
 * whose receiver failed, whichever comes first; null when nothing is left for the worker to do.
 */
function nextLook(run: JobRun, lease: JobLease, settledNow: boolean, now: number) {
  if (!isSettled(run.state.status)) return { due: now + LEASE_MS, tries: lease.tries };
  const webhook = webhookDue(run.state);
  const reconcile =
    run.state.reconcile !== 'pending' || askable(run).length === 0
      ? null
      : // Just settled: SIEX is asked at the next sweep; after a try, later and later.
        settledNow
        ? { due: now, tries: 0 }
        : { due: now + reconcileDelayMs(lease.tries), tries: lease.tries + 1 };
  if (webhook === null) return reconcile;
  return reconcile && reconcile.due <= webhook ? reconcile : { due: webhook, tries: reconcile?.tries ?? lease.tries };
}

/**
 * Settles a job that cannot go on as Fallido. Records in a batch that may have reached SIEX (sent with no answer,
 * timed out, connection reset, or submitted without a verdict yet) may well be in SIEX: they are settled as
 * OUTCOME_UNKNOWN and their export is blocked until their outcome is learnt (`reconcile`) or support releases them;
 * only records never sent are NOT_PROCESSED and free to export again.
 */
async function settleFailed(deps: WorkerDeps, run: JobRun, error: JobError): Promise<void> {
  const unknown = run.batches
    .filter((b) => b.state === 'submitted' || (b.state === 'submitting' && b.mayHaveReached))
    .flatMap((b) =>
      b.records
        .filter((ref) => run.item(ref).state === 'pending')
        .map((ref): [RecordRef, Outcome] => [ref, { state: 'error', code: UNKNOWN, message: unknownBecause(b) }]),
    );
  if (unknown.length > 0) {
    run.guard();
    for (const [kind, ids] of byKind(
      deps.kinds,
      unknown.map(([ref]) => ref),
    ))
      await kind.store.markOutcomeUnknown(run.farm, ids, run.jobId);
    await run.settle(unknown);
  }
  const { status } = run.state;
  if (status === 'Iniciando' || status === 'EnProceso')
    await run.transition(
      { from: status, to: 'Fallido' },
      {
        error,
        ...run.counts(),
        ...(unknown.length > 0 ? { reconcile: { from: 'none', to: 'pending' } as const } : {}),
      },
    );
}

function unknownBecause(batch: JobBatch): string {
  const then =
    'The gateway keeps asking SIEX and will update this result; until then the record cannot be exported again.';
  return batch.state === 'submitted'
    ? `sent to SIEX (request ${batch.requestId}), which had not given its verdict when the job stopped. ${then}`
    : `may have reached SIEX: it was sent, but SIEX's answer never came back (no answer in time, a dropped connection, or the worker stopped). ${then}`;
}

async function advance(deps: WorkerDeps, run: JobRun, signal: AbortSignal): Promise<void> {
  // Under the ETag read: another process may have moved the job meanwhile.
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
  const fresh = await batchPendingRecords(deps, run, farm, signal);
  for (const batch of run.batches.filter((b) => b.state === 'submitting')) {
    await run.readRecords(deps.kinds, batch.records);
    // A batch written down in this delivery has not been sent yet, whatever it says.
    await submitBatch(deps, run, farm, batch, fresh.has(batch.n) ? false : batch.mayHaveReached, signal);
  }
  // Every batch is polled to its end before a failure is passed on: no batch keeps writing under a redelivery.
  const polled = await Promise.allSettled(
    run.batches.filter((b) => b.state === 'submitted').map((b) => settleBatch(deps, run, farm, b, signal)),
  );
  const failed = polled.find((p): p is PromiseRejectedResult => p.status === 'rejected');
  if (failed) throw failed.reason;

  const { settled, accepted } = run.counts();
  if (settled === run.allItems().length) {
    await run.transition({ from: 'EnProceso', to: finalStatus(accepted, run.state.total) }, { settled, accepted });
  }
}

/**
 * Maps the records not yet in a batch; those SIEX could not take are settled now, the rest go into new batches
 * (their numbers returned), written down as if already sent: a crash before the send cannot make them look unsent.
 */
async function batchPendingRecords(
  deps: WorkerDeps,
  run: JobRun,
  farm: FarmIndex,
  signal: AbortSignal,
): Promise<Set<number>> {
  const pending = run.unbatched();
  if (pending.length === 0) return new Set();
  await run.readRecords(deps.kinds, pending);
  const notSent: [RecordRef, Outcome][] = [];
  const sendable: RecordRef[] = [];
  for (const ref of pending) {
    const mapped = run.cue(deps.kinds, ref, farm);
    if (mapped.ok) sendable.push(ref);
    else
      notSent.push([
        ref,
        { state: 'error', code: 'MISSING_DATA', message: `not sent to SIEX: missing ${mapped.missing.join('; ')}` },
      ]);
  }
  if (notSent.length > 0) {
    await run.settle(notSent);
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
      records: sendable.slice(i, i + deps.batchSize),
      mayHaveReached: true,
    });
  }
  // Make sure SIEX can be used at all before writing down batches as possibly sent.
  if (fresh.length > 0) await siexCall(deps, run.jobId, 'comunicacion', undefined, () => deps.siex.ready(signal));
  await run.addBatches(fresh);
  return new Set(fresh.map((b) => b.n));
}

/**
 * The CUE document of a batch: the same every time it is built, as a repeat under the batch's key must be. One
 * document for the farm, each kind's blocks in its own `ActividadesExplotacion` section (CUE schema 3.11.4: one
 * CUADERNO per holding, its activities by section), in the order of the registry; a section without blocks is left
 * out. The blocks of a record are what it is now and what SIEX must forget of it (JobRun.cue): `Borrar` for a
 * deletion job.
 */
function batchDocument(deps: WorkerDeps, run: JobRun, farm: FarmIndex, batch: JobBatch): unknown {
  const sections = new Map<string, unknown[]>(deps.kinds.all().map((k) => [k.cue.section, []]));
  for (const ref of batch.records) {
    const mapped = run.cue(deps.kinds, ref, farm);
    if (mapped.ok) sections.get(deps.kinds.of(ref.type).cue.section)!.push(...mapped.blocks);
  }
  return cueDocument(farm, Object.fromEntries([...sections].filter(([, blocks]) => blocks.length > 0)));
}

/** These records' ids, by their kind. */
function byKind(kinds: ExportKinds, refs: readonly RecordRef[]): Map<ExportKind, number[]> {
  return new Map([...byType(refs)].map(([type, ofKind]) => [kinds.of(type), ofKind.map((r) => r.id)]));
}

/** Whether a failed call may have reached SIEX (unless the IUWS client says for certain it did not). */
const mayHaveReached = (e: unknown) => !(e instanceof IuwsError) || e.reachedSiex;

/**
 * Sends a batch (again, under its key). `reachedBefore`: whether an earlier send may have reached SIEX, so that a send
 * SIEX certainly did not take leaves the batch as it was: unsent only if every send so far was.
 */
async function submitBatch(
  deps: WorkerDeps,
  run: JobRun,
  farm: FarmIndex,
  batch: JobBatch,
  reachedBefore: boolean,
  signal: AbortSignal,
): Promise<void> {
  if (!batch.mayHaveReached)
    batch = await run.moveBatch(batch.n, { from: 'submitting', to: 'submitting' }, { mayHaveReached: true });
  run.guard();
  let requestId: string;
  try {
    const document = batchDocument(deps, run, farm, batch);
    requestId = await siexCall(deps, run.jobId, 'crear', batch.n, () => deps.siex.submit(document, batch.key, signal));
  } catch (e) {
    if (!refusedBySiex(e)) {
      if (!reachedBefore && !mayHaveReached(e))
        await run.moveBatch(batch.n, { from: 'submitting', to: 'submitting' }, { mayHaveReached: false });
      throw e;
    }
    jobProblem(deps.log, run.jobId, `batch ${batch.n}: ${logText(e)}`);
    // SIEX refused the whole document: each of its records carries the refusal.
    await run.settle(
      batch.records.map((ref) => [ref, { state: 'error', code: 'SIEX_REJECTED', message: siexWords(e) }]),
    );
    await run.saveCounts();
    await run.moveBatch(batch.n, { from: 'submitting', to: 'done' });
    return;
  }
  await run.moveBatch(batch.n, { from: 'submitting', to: 'submitted' }, { requestId });
}

async function settleBatch(
  deps: WorkerDeps,
  run: JobRun,
  farm: FarmIndex,
  batch: JobBatch,
  signal: AbortSignal,
): Promise<void> {
  const clock = deps.clock ?? systemClock;
  const started = clock.now();
  let wait = deps.poll.firstMs;
  const ask = () =>
    siexCall(deps, run.jobId, 'comprobarEstado', batch.n, () => deps.siex.status(batch.requestId, signal));
  let outcome = await ask();
  while (outcome.state !== 'done') {
    if (clock.now() - started > deps.poll.deadlineMs)
      throw new Error(`SIEX has not finished request ${batch.requestId} yet`);
    await clock.sleep(wait, signal);
    wait = Math.min(wait * 2, deps.poll.maxMs);
    outcome = await ask();
  }
  await applyVerdict(deps, run, farm, batch, outcome.results, (item) => item.state === 'pending');
}

/**
 * Applies SIEX's verdict on a batch to those of its records `open` selects (still pending, or still unknown): accepted
 * ones are marked exported, refused ones carry SIEX's codes; an unknown outcome learnt frees the record's export. Each
 * record was sent as one block per crop and variety: it is accepted when all of them are.
 */
async function applyVerdict(
  deps: WorkerDeps,
  run: JobRun,
  farm: FarmIndex,
  batch: JobBatch,
  results: Awaited<ReturnType<SiexPort['status']>>['results'],
  open: (item: JobItem) => boolean,
): Promise<void> {
  // Each kind's IdAjena is its own sequence: a verdict is found by its section and id.
  const bySection = new Map<string, Map<number, BlockResult>>();
  for (const r of results) {
    const { section } = r;
    bySection.set(section, (bySection.get(section) ?? new Map<number, BlockResult>()).set(r.externalId, r));
  }
  const refs = batch.records.filter((ref) => open(run.item(ref)));
  await run.readRecords(deps.kinds, refs);
  const outcomes = refs.map((ref): [RecordRef, Outcome] => {
    const verdicts = bySection.get(deps.kinds.of(ref.type).cue.section) ?? new Map<number, BlockResult>();
    return [ref, recordOutcome(run.blockIds(deps.kinds, ref, farm), verdicts)];
  });
  const accepted = outcomes.filter(([, o]) => o.state === 'ok').map(([ref]) => ref);
  await run.applyAccepted(
    deps.kinds,
    farm,
    accepted,
    formatDateTime(DateTime.fromMillis((deps.clock ?? systemClock).now())),
  );
  const learnt = refs.filter((ref) => isUnknown(run.item(ref)));
  for (const [kind, ids] of byKind(deps.kinds, learnt)) await kind.store.clearOutcomeUnknown(run.farm, ids);
  await run.settle(outcomes);
  await run.moveBatch(batch.n, { from: 'submitted', to: 'done' });
  await run.saveCounts();
}

/**
 * The batches SIEX can still be asked about: not done, holding records whose outcome is unknown. One that was never
 * acknowledged can only be asked about by sending it again under its key, which the IUWS contract makes safe (SIEX
 * answers its first request id, or takes it now as its first and only copy); that needs the very same document, so
 * not once support has released any of its records.
 */
function askable(run: JobRun): JobBatch[] {
  return run.batches.filter((b) => {
    const items = b.records.map((ref) => run.item(ref));
    if (b.state === 'done' || !items.some(isUnknown)) return false;
    return b.state === 'submitted' || items.every(isUnknown);
  });
}

/**
 * Learns the outcome SIEX gave records a failed job left unknown: a batch with a request id is polled once; one
 * without is sent again under its key, which answers its request id (SIEX had it) or submits it for the first time
 * (SIEX did not). Where SIEX cannot tell (it refuses the repeat, or does not know the request id) the records stay
 * unknown for support to check and release (`npm run admin -- release-unknown`).
 */
async function reconcile(deps: WorkerDeps, run: JobRun, signal: AbortSignal): Promise<void> {
  if (run.state.reconcile !== 'pending') return;
  const batches = askable(run);
  const farm = batches.length > 0 ? await deps.farms.index(run.state.farmId) : null;
  for (let batch of batches) {
    try {
      if (!farm) continue;
      if (batch.state === 'submitting') {
        await run.readRecords(deps.kinds, batch.records);
        run.guard();
        const document = batchDocument(deps, run, farm, batch);
        const { key, n } = batch;
        const requestId = await siexCall(deps, run.jobId, 'crear', n, () => deps.siex.submit(document, key, signal));
        batch = await run.moveBatch(batch.n, { from: 'submitting', to: 'submitted' }, { requestId });
      }
      const { requestId, n } = batch;
      const outcome = await siexCall(deps, run.jobId, 'comprobarEstado', n, () => deps.siex.status(requestId, signal));
      if (outcome.state === 'done') await applyVerdict(deps, run, farm, batch, outcome.results, isUnknown);
    } catch (e) {
      if (e instanceof LeaseLost || signal.aborted) throw e;
      jobProblem(deps.log, run.jobId, `batch ${batch.n}, asking SIEX about unknown outcomes: ${logText(e)}`);
      if (!refusedBySiex(e)) continue; // SIEX unavailable for now: asked again later
      const stuck = batch.records.filter((ref) => isUnknown(run.item(ref)));
      await run.settle(
        stuck.map((ref) => [
          ref,
          {
            state: 'error',
            code: UNKNOWN,
            message: `SIEX cannot say whether it has this record (${siexWords(e)}); support must check SIEX and release it.`,
          },
        ]),
      );
      await run.moveBatch(
        batch.n,
        batch.state === 'submitted' ? { from: 'submitted', to: 'done' } : { from: 'submitting', to: 'done' },
      );
    }
  }
  if (!run.allItems().some(isUnknown))
    await run.update({ reconcile: { from: 'pending', to: 'resolved' }, ...run.counts() });
}

/** One call to SIEX, logged with how long it took and how it ended (`siex.call`); its failure is passed on. */
async function siexCall<T>(
  deps: WorkerDeps,
  jobId: number,
  operation: LogEvents['siex.call']['operation'],
  batch: number | undefined,
  call: () => Promise<T>,
): Promise<T> {
  const clock = deps.clock ?? systemClock;
  const started = clock.now();
  const logged = (outcome: string, siexState?: unknown) =>
    deps.log?.event(
      'siex.call',
      {
        jobId,
        operation,
        ...(batch !== undefined ? { batch } : {}),
        outcome,
        durationMs: clock.now() - started,
        ...(siexState === 'pending' || siexState === 'done' ? { siexState } : {}),
      },
      outcome === 'ok' ? 'info' : 'warn',
    );
  try {
    const result = await call();
    logged('ok', (result as { state?: unknown } | undefined)?.state);
    return result;
  } catch (e) {
    logged(e instanceof IuwsError ? e.code : 'WORKER_ERROR');
    throw e;
  }
}
