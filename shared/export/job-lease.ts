import { randomUUID } from 'node:crypto';
import { Clock } from '../time/clock';
import { WatchStore } from './job-watch';

/**
 * How a job that stopped moving is found (docs/architecture.md, "Crash guarantees"): the delivery running a job renews
 * its lease every HEARTBEAT_MS; a lease not renewed for LEASE_MS means the delivery is gone (its process died, or
 * stalled), and the sweeper, which runs every SWEEP_EVERY_MS, queues the job again. So a job resumes within
 * LEASE_MS + SWEEP_EVERY_MS of its last heartbeat, instead of when the queue's 10-minute message lease runs out.
 */
export const LEASE_MS = 120_000;
export const HEARTBEAT_MS = 30_000;
export const SWEEP_EVERY_MS = 30_000;
/** SWEEP_EVERY_MS as the timer trigger's NCRONTAB schedule (seconds first). */
export const SWEEP_SCHEDULE = '*/30 * * * * *';

/** The delivery no longer holds the job: another one may be running it. Nothing more may be written. */
export class LeaseLost extends Error {
  readonly retryable = true;
  constructor(jobId: number) {
    super(`the lease on export job ${jobId} was lost: another delivery may be running it`);
    this.name = 'LeaseLost';
  }
}

/**
 * One delivery's hold on a job, taken under the watch row's ETag: two deliveries can never hold the same job at once.
 * `check()` before every write and `signal` on every SIEX call stop the work as soon as the hold is lost, whether a
 * heartbeat found the row taken or the lease simply ran out (a stalled process must not write after it).
 */
export class JobLease {
  private readonly controller = new AbortController();
  private readonly stopBeating: () => void;

  private constructor(
    private readonly watch: WatchStore,
    readonly jobId: number,
    private etag: string,
    private due: number,
    readonly tries: number,
    private readonly clock: Clock,
  ) {
    this.stopBeating = clock.every(HEARTBEAT_MS, () => void this.beat());
  }

  /** Takes the job unless a live delivery holds it: null then (that delivery, or the sweeper, sees it through). */
  static async take(watch: WatchStore, jobId: number, clock: Clock): Promise<JobLease | null> {
    const row = await watch.read(jobId);
    const now = clock.now();
    if (row && row.owner !== '' && row.due > now) return null;
    const due = now + LEASE_MS;
    const tries = row?.tries ?? 0;
    const etag = await watch.write(jobId, row ? row.etag : null, { owner: randomUUID(), due, tries });
    return etag === null ? null : new JobLease(watch, jobId, etag, due, tries, clock);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Throws LeaseLost once the hold is gone. */
  check(): void {
    if (!this.controller.signal.aborted && this.clock.now() >= this.due) this.lose();
    if (this.controller.signal.aborted) throw new LeaseLost(this.jobId);
  }

  private lose(): void {
    this.stopBeating();
    this.controller.abort(new LeaseLost(this.jobId));
  }

  private async beat(): Promise<void> {
    if (this.controller.signal.aborted) return;
    const due = this.clock.now() + LEASE_MS;
    try {
      const etag = await this.watch.renew(this.jobId, this.etag, due);
      if (etag === null) return this.lose();
      this.etag = etag;
      this.due = due;
    } catch {
      // Storage is out for now: the next beat tries again, and check() stops the work if the lease runs out first.
    }
  }

  /**
   * Lets go of the job: `next` null takes it off the watch list (nothing left to do); otherwise it stays there,
   * free, for the sweeper to look at by `next.due`.
   */
  async end(next: { due: number; tries: number } | null): Promise<void> {
    this.stopBeating();
    if (this.controller.signal.aborted) return;
    this.controller.abort(new LeaseLost(this.jobId));
    if (next) await this.watch.write(this.jobId, this.etag, { owner: '', ...next });
    else await this.watch.remove(this.jobId, this.etag);
  }
}
