import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';
import { FarmReader } from '../farms/farm-store';
import { Logger, silentLogger } from '../log/logger';
import { Clock } from '../time/clock';
import { ExportKinds } from './export-kinds';
import { Job, JobBatch, JobError, JobItem } from './job';
import { jobProblem, logText } from './job-errors';
import { LeaseLost } from './job-lease';
import { JobRecords } from './job-records';
import { JobRun, Outcome } from './job-run';
import { finalStatus } from './job-status';
import { JobStore } from './job-store';
import { recordOutcome, verdictsBySection } from './record-outcome';
import { RecordRef } from './record-ref';
import { BlockVerdict, mayHaveReached, refusedBySiex, siexCall, SiexPort, siexWords } from './siex-port';

/** What running a job takes: its kinds, the farms, SIEX, the size of a batch and the polling, the clock, the log. */
interface JobDeps {
  /** The record kinds a job's records may be of, and their stores. */
  kinds: ExportKinds;
  farms: Pick<FarmReader, 'index'>;
  siex: SiexPort;
  /** Records per SIEX submission. */
  batchSize: number;
  /** Polling of SIEX's outcome: first delay, longest delay, and how long before giving the message back to the queue. */
  poll: { firstMs: number; maxMs: number; deadlineMs: number };
  /** The time of SIEX's polling and of the dates written. */
  clock: Clock;
  /** The job's moves, each SIEX call, and what clients are not shown (`job.problem`). */
  log?: Logger;
}

/**
 * Where a running job stands, read from its rows alone, so that a delivery after a crash finds it where the last one
 * stopped; each stage has the command that moves the job on from it (`advance`):
 * - `starting` (Iniciando): `start` moves it to EnProceso;
 * - `batching` (pending records in no batch): `batch` settles those SIEX could not take and writes the rest down as
 *   batches, as if already sent, before any is;
 * - `sending` (a batch written down, not known to be in SIEX): `send` sends it under its key;
 * - `polling` (batches SIEX took): `poll` waits for SIEX's verdicts and applies them;
 * - `finishing` (every record settled): `finish` settles the job.
 * A settled job has no stage: its unknown outcomes are learnt by `reconcile`; a job that cannot go on is settled by
 * `fail`.
 */
type Stage = 'starting' | 'batching' | 'sending' | 'polling' | 'finishing';

const UNKNOWN = 'OUTCOME_UNKNOWN';
const isUnknown = (item: JobItem) => item.state === 'error' && item.code === UNKNOWN;

/**
 * An export job, its life readable here: one delivery's view of its rows (job-run.ts), its records (job-records.ts),
 * and a command per stage. Every step is recorded in the job's partition before the next one starts: a batch is
 * written as `submitting` with its idempotency key before it is sent, and sent again only with that same key, so SIEX
 * receives each record at most once; outcomes already applied are applied again harmlessly. Runs under the job's
 * lease (worker.ts), whose `check` guards every write and whose signal stops every SIEX call.
 */
export class ExportJob extends JobRun {
  private readonly records: JobRecords;
  /** Stops every SIEX call and wait once the lease is lost. */
  private readonly signal: AbortSignal;
  /** The batches this delivery wrote down: not sent yet, whatever they say. */
  private readonly unsent = new Set<number>();
  private farmRead: Promise<FarmIndex | null> | undefined;

  constructor(
    jobs: JobStore,
    job: Job,
    private readonly deps: JobDeps,
    lease: { check(): void; readonly signal: AbortSignal },
  ) {
    super(jobs, job, () => lease.check(), deps.log ?? silentLogger);
    this.records = new JobRecords(deps.kinds, this);
    this.signal = lease.signal;
  }

  /** Where the job stands now; null once it is settled, or stopped where no command applies. */
  private stage(): Stage | null {
    if (this.state.status === 'Iniciando') return 'starting';
    if (this.state.status !== 'EnProceso') return null;
    if (this.unbatched().length > 0) return 'batching';
    if (this.batches.some((b) => b.state === 'submitting')) return 'sending';
    if (this.batches.some((b) => b.state === 'submitted')) return 'polling';
    return this.counts().settled === this.allItems().length ? 'finishing' : null;
  }

  /** Runs the job on, stage by stage, until it settles or a command stops this delivery. */
  async advance(): Promise<void> {
    for (let stage = this.stage(); stage !== null; stage = this.stage()) if (!(await this.step(stage))) return;
  }

  /** The command of a stage: false when this delivery must stop here. */
  private async step(stage: Stage): Promise<boolean> {
    if (stage === 'starting') return this.start();
    const farm = await this.farmIndex();
    if (!farm) return false;
    switch (stage) {
      case 'batching':
        return this.batch(farm);
      case 'sending':
        return this.send(farm);
      case 'polling':
        return this.poll(farm);
      case 'finishing':
        return this.finish();
    }
  }

  /** Iniciando to EnProceso, under the ETag read: another process may have moved the job meanwhile (false then). */
  private start(): Promise<boolean> {
    return this.transition({ from: 'Iniciando', to: 'EnProceso' }, {}, true);
  }

  /** The job's farm, read once per delivery; a farm no longer registered fails the job. */
  private async farmIndex(): Promise<FarmIndex | null> {
    this.farmRead ??= this.deps.farms.index(this.state.farmId);
    const farm = await this.farmRead;
    if (!farm) {
      const error = { code: 'FARM_NOT_FOUND', message: 'the farm is no longer registered' };
      await this.transition({ from: 'EnProceso', to: 'Fallido' }, { error });
    }
    return farm;
  }

  /** Settles the records SIEX could not take (MISSING_DATA) and writes the others down in new batches. */
  private async batch(farm: FarmIndex): Promise<boolean> {
    const pending = this.unbatched();
    await this.records.read(pending);
    const notSent: [RecordRef, Outcome][] = [];
    const sendable: RecordRef[] = [];
    for (const ref of pending) {
      const mapped = this.records.cue(ref, farm);
      if (mapped.ok) sendable.push(ref);
      else {
        const message = `not sent to SIEX: missing ${mapped.missing.join('; ')}`;
        notSent.push([ref, { state: 'error', code: 'MISSING_DATA', message }]);
      }
    }
    if (notSent.length > 0) {
      await this.settle(notSent);
      await this.saveCounts();
    }
    const fresh: JobBatch[] = [];
    for (let i = 0; i < sendable.length; i += this.deps.batchSize) {
      const n = this.batches.length + fresh.length;
      const records = sendable.slice(i, i + this.deps.batchSize);
      fresh.push({
        n,
        key: `job-${this.jobId}-batch-${n}`,
        requestId: '',
        state: 'submitting',
        records,
        mayHaveReached: true,
      });
    }
    // SIEX must be usable at all before batches are written down as possibly sent.
    if (fresh.length > 0) await this.siex('comunicacion', undefined, (signal) => this.deps.siex.ready(signal));
    await this.addBatches(fresh);
    fresh.forEach((b) => this.unsent.add(b.n));
    return true;
  }

  /**
   * Sends the first batch not known to be in SIEX, under its key. A send SIEX certainly did not take leaves the batch
   * unsent only if every send so far was; SIEX refusing the whole document settles each of its records with the
   * refusal.
   */
  private async send(farm: FarmIndex): Promise<boolean> {
    let batch = this.batches.find((b) => b.state === 'submitting')!;
    const reachedBefore = !this.unsent.has(batch.n) && batch.mayHaveReached;
    await this.records.read(batch.records);
    if (!batch.mayHaveReached)
      batch = await this.moveBatch(batch.n, { from: 'submitting', to: 'submitting' }, { mayHaveReached: true });
    try {
      await this.submit(batch, farm);
    } catch (e) {
      if (!refusedBySiex(e)) {
        if (!reachedBefore && !mayHaveReached(e))
          await this.moveBatch(batch.n, { from: 'submitting', to: 'submitting' }, { mayHaveReached: false });
        throw e;
      }
      jobProblem(this.deps.log, this.jobId, `batch ${batch.n}: ${logText(e)}`);
      await this.settle(
        batch.records.map((ref) => [ref, { state: 'error', code: 'SIEX_REJECTED', message: siexWords(e) }]),
      );
      await this.saveCounts();
      await this.moveBatch(batch.n, { from: 'submitting', to: 'done' });
    }
    return true;
  }

  /** Sends a batch's document under the batch's key: SIEX answers a repeat with the request id of the first. */
  private async submit(batch: JobBatch, farm: FarmIndex): Promise<JobBatch> {
    this.guard();
    const document = this.records.document(batch, farm);
    const requestId = await this.siex('crear', batch.n, (signal) => this.deps.siex.submit(document, batch.key, signal));
    return this.moveBatch(batch.n, { from: 'submitting', to: 'submitted' }, { requestId });
  }

  /**
   * Waits for SIEX's verdict on every batch it took, and applies it. Every batch is polled to its end before a failure
   * is passed on: no batch keeps writing under a redelivery.
   */
  private async poll(farm: FarmIndex): Promise<boolean> {
    const submitted = this.batches.filter((b) => b.state === 'submitted');
    const polled = await Promise.allSettled(submitted.map((b) => this.verdict(b, farm)));
    const failed = polled.find((p): p is PromiseRejectedResult => p.status === 'rejected');
    if (failed) throw failed.reason;
    return true;
  }

  /** Asks SIEX about a batch, from `poll.firstMs` doubling to `poll.maxMs`, until it is done, then applies its verdict. */
  private async verdict(batch: JobBatch, farm: FarmIndex): Promise<void> {
    const { clock, poll } = this.deps;
    const started = clock.now();
    const ask = () => this.siex('comprobarEstado', batch.n, (signal) => this.deps.siex.status(batch.requestId, signal));
    let wait = poll.firstMs;
    let outcome = await ask();
    while (outcome.state !== 'done') {
      if (clock.now() - started > poll.deadlineMs)
        throw new Error(`SIEX has not finished request ${batch.requestId} yet`);
      await clock.sleep(wait, this.signal);
      wait = Math.min(wait * 2, poll.maxMs);
      outcome = await ask();
    }
    await this.applyVerdict(batch, farm, outcome.results, (item) => item.state === 'pending');
  }

  /** EnProceso to its final status, once every record is settled. */
  private async finish(): Promise<boolean> {
    const { settled, accepted } = this.counts();
    return this.transition({ from: 'EnProceso', to: finalStatus(accepted, this.state.total) }, { settled, accepted });
  }

  /**
   * Applies SIEX's verdict on a batch to those of its records `open` selects (still pending, or still unknown):
   * accepted ones are marked exported, refused ones carry SIEX's codes; an unknown outcome learnt frees the record's
   * export. Each record was sent as one block per crop and variety: it is accepted when all of them are.
   */
  private async applyVerdict(
    batch: JobBatch,
    farm: FarmIndex,
    results: readonly BlockVerdict[],
    open: (item: JobItem) => boolean,
  ): Promise<void> {
    const bySection = verdictsBySection(results);
    const refs = batch.records.filter((ref) => open(this.item(ref)));
    await this.records.read(refs);
    const outcomes = refs.map((ref): [RecordRef, Outcome] => {
      const verdicts = bySection.get(this.records.section(ref.type)) ?? new Map();
      return [ref, recordOutcome(this.records.blockIds(ref, farm), verdicts)];
    });
    const accepted = outcomes.filter(([, o]) => o.state === 'ok').map(([ref]) => ref);
    await this.records.accepted(accepted, farm, formatDateTime(DateTime.fromMillis(this.deps.clock.now())));
    await this.records.outcomeKnown(refs.filter((ref) => isUnknown(this.item(ref))));
    await this.settle(outcomes);
    await this.moveBatch(batch.n, { from: 'submitted', to: 'done' });
    await this.saveCounts();
  }

  /**
   * Settles a job that cannot go on as Fallido. Records in a batch that may have reached SIEX (sent with no answer,
   * timed out, connection reset, or submitted without a verdict yet) may well be in SIEX: they are settled as
   * OUTCOME_UNKNOWN and their export is blocked until their outcome is learnt (`reconcile`) or support releases them;
   * only records never sent are NOT_PROCESSED and free to export again.
   */
  async fail(error: JobError): Promise<void> {
    const unknown = this.batches
      .filter((b) => b.state === 'submitted' || (b.state === 'submitting' && b.mayHaveReached))
      .flatMap((b) =>
        b.records
          .filter((ref) => this.item(ref).state === 'pending')
          .map((ref): [RecordRef, Outcome] => [ref, { state: 'error', code: UNKNOWN, message: unknownBecause(b) }]),
      );
    if (unknown.length > 0) {
      await this.records.outcomeUnknown(unknown.map(([ref]) => ref));
      await this.settle(unknown);
    }
    const { status } = this.state;
    const reconcile = unknown.length > 0 ? { reconcile: { from: 'none', to: 'pending' } as const } : {};
    if (status === 'Iniciando' || status === 'EnProceso')
      await this.transition({ from: status, to: 'Fallido' }, { error, ...this.counts(), ...reconcile });
  }

  /**
   * The batches SIEX can still be asked about: not done, holding records whose outcome is unknown. One that was never
   * acknowledged can only be asked about by sending it again under its key, which the IUWS contract makes safe (SIEX
   * answers its first request id, or takes it now as its first and only copy); that needs the very same document, so
   * not once support has released any of its records.
   */
  askable(): JobBatch[] {
    return this.batches.filter((b) => {
      const items = b.records.map((ref) => this.item(ref));
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
  async reconcile(): Promise<void> {
    if (this.state.reconcile !== 'pending') return;
    const batches = this.askable();
    const farm = batches.length > 0 ? await this.deps.farms.index(this.state.farmId) : null;
    for (let batch of batches) {
      try {
        if (!farm) continue;
        if (batch.state === 'submitting') {
          await this.records.read(batch.records);
          batch = await this.submit(batch, farm);
        }
        const { requestId, n } = batch;
        const outcome = await this.siex('comprobarEstado', n, (signal) => this.deps.siex.status(requestId, signal));
        if (outcome.state === 'done') await this.applyVerdict(batch, farm, outcome.results, isUnknown);
      } catch (e) {
        if (e instanceof LeaseLost || this.signal.aborted) throw e;
        jobProblem(this.deps.log, this.jobId, `batch ${batch.n}, asking SIEX about unknown outcomes: ${logText(e)}`);
        if (!refusedBySiex(e)) continue; // SIEX unavailable for now: asked again later
        const message = `SIEX cannot say whether it has this record (${siexWords(e)}); support must check SIEX and release it.`;
        const stuck = batch.records.filter((ref) => isUnknown(this.item(ref)));
        await this.settle(stuck.map((ref) => [ref, { state: 'error', code: UNKNOWN, message }]));
        const done =
          batch.state === 'submitted'
            ? ({ from: 'submitted', to: 'done' } as const)
            : ({ from: 'submitting', to: 'done' } as const);
        await this.moveBatch(batch.n, done);
      }
    }
    if (!this.allItems().some(isUnknown))
      await this.update({ reconcile: { from: 'pending', to: 'resolved' }, ...this.counts() });
  }

  /** One call to SIEX about this job, stopped when the lease is lost, and logged. */
  private siex<T>(
    operation: 'comunicacion' | 'crear' | 'comprobarEstado',
    batch: number | undefined,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const at = { jobId: this.jobId, operation, ...(batch !== undefined ? { batch } : {}) };
    return siexCall(this.deps, at, () => call(this.signal));
  }
}

function unknownBecause(batch: JobBatch): string {
  const then =
    'The gateway keeps asking SIEX and will update this result; until then the record cannot be exported again.';
  return batch.state === 'submitted'
    ? `sent to SIEX (request ${batch.requestId}), which had not given its verdict when the job stopped. ${then}`
    : `may have reached SIEX: it was sent, but SIEX's answer never came back (no answer in time, a dropped connection, or the worker stopped). ${then}`;
}
