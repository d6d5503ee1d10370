import { Clock } from '../../shared/time/clock';

interface Timer {
  at: number;
  fire: () => void;
  /** Set for `every`: the period it comes back after. */
  period?: number;
  cancelled?: boolean;
}

/**
 * A clock that stands still until the test moves it (`advance`): sleeps end and heartbeats beat at the instants the
 * test reaches, in time order, however slow the machine. Starts at the real time, so rows it dates look like others.
 */
export class ManualClock implements Clock {
  private timers: Timer[] = [];

  constructor(private t = Date.now()) {}

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer: Timer = { at: this.t + ms, fire: resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          timer.cancelled = true;
          reject(signal.reason as Error);
        },
        { once: true },
      );
    });
  }

  every(ms: number, tick: () => void): () => void {
    const timer: Timer = { at: this.t + ms, fire: tick, period: ms };
    this.timers.push(timer);
    return () => void (timer.cancelled = true);
  }

  /**
   * Moves time on by `ms` at once, firing nothing on the way: what a process frozen that long sees when it wakes up
   * (its timers fire late, at the next `advance`).
   */
  jump(ms: number): void {
    this.t += ms;
  }

  /** Timers still waiting (sleeps not ended, heartbeats not stopped). */
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /**
   * Moves time on by `ms`, firing every timer that falls due on the way at its own instant, earliest first, and letting
   * what each one starts run (to its next real wait) before the next.
   */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      const next = this.timers.reduce<Timer | undefined>((a, b) => (a && a.at <= b.at ? a : b), undefined);
      if (!next || next.at > end) break;
      this.t = next.at;
      if (next.period === undefined) next.cancelled = true;
      else next.at += next.period;
      next.fire();
      await new Promise((r) => setImmediate(r));
    }
    this.t = end;
  }
}
