import { DomainError, violation } from '../domain/errors';
import { Clock } from '../time/clock';

/**
 * What an instance takes on at once. Past what its CPU and storage can answer, every request in flight slows every
 * other: the peak bench (docs/capacity.md section 11) held 80 records a second against a stack that does ~48, and
 * within a minute every answer was at the 25 s request budget, records stored whose answers were lost. Admission keeps
 * the work in hand to `limit` requests; the next ones wait their turn, first come first served, for at most `waitMs`,
 * and a request still waiting then, or arriving to a full queue, is turned away at once with 503 OVERLOADED and
 * Retry-After, before it has read or written anything: the client's retry (with its Idempotency-Key) is safe, and the
 * requests taken keep their usual times. In Azure the platform scales out at the same per-instance concurrency
 * (`httpPerInstanceConcurrency`, infra/modules/functionApp.bicep), so an instance sheds only while the next one starts.
 */
export class Admission {
  #working = 0;
  /** The waiting requests' turns, oldest first; calling one hands it the slot of a request that ended. */
  readonly #queue: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly waitMs: number,
    private readonly clock: Pick<Clock, 'sleep'>,
    /** How many may wait at once: past it a request is refused without waiting. */
    readonly queueLimit = limit * 8,
  ) {}

  /** Runs `work` once a slot is free, or throws OVERLOADED (503, Retry-After) without running it. */
  async within<T>(work: () => Promise<T>): Promise<T> {
    if (this.#working < this.limit && this.#queue.length === 0) this.#working++;
    else await this.#turn();
    try {
      return await work();
    } finally {
      // The slot goes straight to the oldest waiting request, so a newcomer never overtakes it.
      const next = this.#queue.shift();
      if (next) next();
      else this.#working--;
    }
  }

  async #turn(): Promise<void> {
    if (this.#queue.length >= this.queueLimit) throw overloaded(this.limit);
    const timer = new AbortController();
    let admitted = false;
    const turn = () => {
      admitted = true;
      timer.abort();
    };
    this.#queue.push(turn);
    // Either the turn comes (and aborts the wait) or the wait ends first; both settle this sleep.
    await this.clock.sleep(this.waitMs, timer.signal).catch(() => undefined);
    if (admitted) return;
    this.#queue.splice(this.#queue.indexOf(turn), 1);
    throw overloaded(this.limit);
  }
}

/** Long enough for a queue of `limit * 8` to drain at a request's usual tens of milliseconds, short enough to matter. */
const RETRY_AFTER_SECONDS = 2;

function overloaded(limit: number): DomainError {
  return new DomainError(
    'The gateway is at capacity right now; nothing was done. Retry after Retry-After seconds with the same Idempotency-Key.',
    [violation('OVERLOADED', '', `${limit} requests in progress on this instance`)],
    RETRY_AFTER_SECONDS,
  );
}
