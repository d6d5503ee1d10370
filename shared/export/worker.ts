import { MailError } from '../email/mailer';
import { FarmReader } from '../farms/farm-store';
import { Logger, silentLogger } from '../log/logger';
import { IuwsError } from '../siex/iuws-client';
import { Clock, systemClock } from '../time/clock';
import { ExportJob } from './export-job';
import { ExportKinds } from './export-kinds';
import { jobProblem, logText, publicFailure } from './job-errors';
import { JobLease, LEASE_MS, LeaseLost } from './job-lease';
import { isSettled } from './job-status';
import { JobStore } from './job-store';
import { WatchStore } from './job-watch';
import { MailPort, notify, WebhookOutbox, webhookDue } from './notifications';
import { SiexPort } from './siex-port';

export interface WorkerDeps {
  jobs: JobStore;
  watch: WatchStore;
  /** The record kinds a job's records may be of, and their stores. */
  kinds: ExportKinds;
  /** The farm as the REA has it when the job runs (its DGCs and codes may have changed since the job started). */
  farms: Pick<FarmReader, 'index'>;
  siex: SiexPort;
  mailer: MailPort;
  /** The delivery queue webhook events are handed to; absent when the gateway has no signing key. */
  webhooks?: WebhookOutbox;
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

/** After a try that left outcomes unknown, SIEX is asked again after 1 minute, doubling up to an hour. */
export function reconcileDelayMs(tries: number): number {
  return Math.min(60_000 * 2 ** tries, 3_600_000);
}

/**
 * Runs one delivery of an export job's queue message: the job's commands (export-job.ts) under its lease, so that a
 * second delivery of the same job leaves it alone, and a redelivery after a crash resumes where the last one stopped.
 * A settled job whose outcomes are partly unknown is asked about again (`reconcile`) by the deliveries the sweeper
 * queues for it.
 */
export function runExportJob(deps: WorkerDeps, jobId: number): Promise<void> {
  return withLease(deps, jobId, 'leave', (run, lease) => advance(deps, run, lease));
}

/**
 * One delivery's work on the job, answering whether it settled the job just now: a settled job's unknown outcomes are
 * asked about, a running job is moved on. A failure another delivery would meet again (SIEX not configured,
 * credentials refused) fails the job; any other is remembered, so that the poison handler can say why should every
 * delivery fail the same way, and passed on for the queue to deliver the message again.
 */
async function advance(deps: WorkerDeps, run: ExportJob, lease: JobLease): Promise<boolean> {
  if (isSettled(run.state.status)) {
    await run.reconcile();
    return false;
  }
  try {
    await run.advance();
  } catch (e) {
    if (e instanceof LeaseLost || lease.signal.aborted) throw e;
    jobProblem(deps.log, run.jobId, logText(e));
    if (isRetryable(e)) {
      await run.update({ lastError: publicFailure(e) });
      throw e;
    }
    await run.fail(publicFailure(e));
  }
  return isSettled(run.state.status);
}

/**
 * The poison queue's handler: a job whose every delivery failed settles as Fallido, and its owner is told. While
 * another delivery runs the job, the poison message is given back to come again later (it must not be dropped).
 */
export function failExportJob(deps: WorkerDeps, jobId: number): Promise<void> {
  return withLease(deps, jobId, 'retry', async (run) => {
    if (isSettled(run.state.status)) return false;
    const last = run.state.lastError;
    await run.fail({
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
  work: (run: ExportJob, lease: JobLease) => Promise<boolean>,
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
      const run = new ExportJob(deps.jobs, job, { ...deps, clock, log }, lease);
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
 * When the sweeper should look at the job again: to ask SIEX about unknown outcomes, or to hand a webhook event to
 * the delivery queue (a crash stopped it), whichever comes first; null when nothing is left for the worker to do.
 */
function nextLook(run: ExportJob, lease: JobLease, settledNow: boolean, now: number) {
  if (!isSettled(run.state.status)) return { due: now + LEASE_MS, tries: lease.tries };
  const webhook = webhookDue(run.state);
  const reconcile =
    run.state.reconcile !== 'pending' || run.askable().length === 0
      ? null
      : // Just settled: SIEX is asked at the next sweep; after a try, later and later.
        settledNow
        ? { due: now, tries: 0 }
        : { due: now + reconcileDelayMs(lease.tries), tries: lease.tries + 1 };
  if (webhook === null) return reconcile;
  return reconcile && reconcile.due <= webhook ? reconcile : { due: webhook, tries: reconcile?.tries ?? lease.tries };
}
