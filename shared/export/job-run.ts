import { FarmKey } from '../records/record-keys';
import { checkMove, TransitionRefused } from '../domain/state-machine';
import { BATCH_TRANSITIONS, BatchMove, Job, JobBatch, JobItem, RECONCILE_TRANSITIONS } from './job';
import { Transition } from './job-status';
import { JobStore, MetaChanges, refOf } from './job-store';
import { RecordRef, refKey } from './record-ref';
import { Logger, silentLogger } from '../log/logger';

const RECONCILE = "a job's reconciliation of unknown outcomes";
const BATCH = 'a SIEX batch';

/** How a record of the job settles: accepted by SIEX, or in error with a code and words for people. */
export type Outcome = { state: 'ok' } | { state: 'error'; code: string; message: string };

/**
 * One delivery's view of a job's rows: read once from the store, then kept in step with it, and the moves they allow.
 * Every change is written first and applied here only once the store took it, so what this object holds is always what
 * the store holds; items and batches are replaced, never changed in place. The job's steps are export-job.ts's.
 */
export class JobRun {
  private meta: Job['meta'];
  /** By `refKey`, as every map of the run. */
  private readonly items: Map<string, JobItem>;
  private batchList: JobBatch[];

  /**
   * `guard` runs before every write and throws when this delivery may no longer write (its lease is gone); `log` takes
   * the job's moves (`job.state`).
   */
  constructor(
    private readonly jobs: JobStore,
    job: Job,
    readonly guard: () => void = () => undefined,
    private readonly log: Logger = silentLogger,
  ) {
    this.meta = job.meta;
    this.items = new Map(job.items);
    this.batchList = [...job.batches];
  }

  get jobId(): number {
    return this.meta.jobId;
  }

  get state(): Readonly<Job['meta']> {
    return this.meta;
  }

  /** The farm campaign whose records the job exports. */
  get farm(): FarmKey {
    return { farmId: this.meta.farmId, rea: this.meta.rea };
  }

  /** The kind every job held before jobs held several (record-ref.ts). */
  get legacyType(): string {
    return this.jobs.legacyType;
  }

  get batches(): readonly JobBatch[] {
    return this.batchList;
  }

  item(ref: RecordRef): JobItem {
    const item = this.items.get(refKey(ref));
    if (!item) throw new Error(`record ${refKey(ref)} is not in job ${this.jobId}`);
    return item;
  }

  allItems(): JobItem[] {
    return [...this.items.values()];
  }

  /** Pending records that no batch holds yet, by kind, in id order. */
  unbatched(): RecordRef[] {
    const batched = new Set(this.batchList.flatMap((b) => b.records.map(refKey)));
    return this.allItems()
      .map(refOf)
      .filter((ref) => this.item(ref).state === 'pending' && !batched.has(refKey(ref)))
      .sort((a, b) => (a.type === b.type ? a.id - b.id : a.type < b.type ? -1 : 1));
  }

  counts(): { settled: number; accepted: number } {
    const items = this.allItems();
    return {
      settled: items.filter((i) => i.state !== 'pending').length,
      accepted: items.filter((i) => i.state === 'ok').length,
    };
  }

  /**
   * Moves the job on from the status it is in (a move from another status is a bug, not a race). With `underEtag`,
   * only if nobody changed the status row since it was read: false when another process moved the job first.
   */
  async transition(move: Transition, changes: MetaChanges = {}, underEtag = false): Promise<boolean> {
    if (move.from !== this.meta.status) throw new Error(`job ${this.jobId} is ${this.meta.status}, not ${move.from}`);
    this.guard();
    const reconcile = this.reconcileAfter(changes);
    const moved = await this.jobs.transition(this.jobId, move, changes, underEtag ? this.meta.etag : undefined);
    if (!moved) return false;
    this.meta = { ...this.meta, ...changes, reconcile, status: move.to };
    const { jobId, kind, total, settled, accepted, error } = this.meta;
    this.log.event(
      'job.state',
      {
        jobId,
        kind,
        from: move.from,
        to: move.to,
        total,
        settled,
        accepted,
        ...(error ? { errorCode: error.code } : {}),
      },
      move.to === 'Fallido' ? 'warn' : 'info',
    );
    return true;
  }

  async update(changes: MetaChanges): Promise<void> {
    const reconcile = this.reconcileAfter(changes);
    this.guard();
    await this.jobs.updateMeta(this.jobId, changes);
    this.meta = { ...this.meta, ...changes, reconcile };
  }

  /** The reconcile state a change leaves, once RECONCILE_TRANSITIONS allows its move from where the job stands. */
  private reconcileAfter({ reconcile: move }: MetaChanges): Job['meta']['reconcile'] {
    if (!move) return this.meta.reconcile;
    if (move.from !== this.meta.reconcile) throw new TransitionRefused(RECONCILE, this.meta.reconcile, move.to);
    checkMove(RECONCILE, RECONCILE_TRANSITIONS, move.from, move.to);
    return move.to;
  }

  /** Settles these records. */
  async settle(outcomes: readonly (readonly [RecordRef, Outcome])[]): Promise<JobItem[]> {
    const items = outcomes.map(([ref, o]): JobItem => ({
      ...this.item(ref),
      ...(o.state === 'ok' ? { state: 'ok', code: '', message: '' } : o),
    }));
    if (items.length === 0) return items;
    this.guard();
    await this.jobs.saveItems(this.jobId, items);
    for (const i of items) this.items.set(refKey(refOf(i)), i);
    return items;
  }

  /** Saves the status row's counts, which jobstatus turns into `percentage`. */
  async saveCounts(): Promise<void> {
    await this.update(this.counts());
  }

  /** Adds batches not sent yet (`submitting`), with numbers no batch of the job has. */
  async addBatches(batches: readonly JobBatch[]): Promise<void> {
    for (const b of batches) {
      if (b.state !== 'submitting' || this.batchList.some((known) => known.n === b.n))
        throw new TransitionRefused(BATCH, this.batchList.find((known) => known.n === b.n)?.state ?? 'new', b.state);
    }
    await this.saveBatches(batches);
  }

  /**
   * Moves a batch from the state it is in (BATCH_TRANSITIONS), with its request id or `mayHaveReached` changed, and
   * answers it as it is now.
   */
  async moveBatch(
    n: number,
    move: BatchMove,
    changes: Partial<Pick<JobBatch, 'requestId' | 'mayHaveReached'>> = {},
  ): Promise<JobBatch> {
    const current = this.batchList.find((b) => b.n === n);
    if (!current) throw new Error(`job ${this.jobId} has no batch ${n}`);
    if (move.from !== current.state) throw new TransitionRefused(BATCH, current.state, move.to);
    checkMove(BATCH, BATCH_TRANSITIONS, move.from, move.to);
    const next: JobBatch = { ...current, ...changes, state: move.to };
    await this.saveBatches([next]);
    return next;
  }

  /** Adds new batches or replaces known ones (by number). */
  private async saveBatches(batches: readonly JobBatch[]): Promise<void> {
    if (batches.length === 0) return;
    this.guard();
    await this.jobs.saveBatches(this.jobId, batches);
    const byN = new Map(batches.map((b) => [b.n, b]));
    const known = new Set(this.batchList.map((b) => b.n));
    this.batchList = [...this.batchList.map((b) => byN.get(b.n) ?? b), ...batches.filter((b) => !known.has(b.n))].sort(
      (a, b) => a.n - b.n,
    );
  }
}
