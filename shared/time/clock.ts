/**
 * The time and the timers of the code that waits: leases and their heartbeats, the sweeper, SIEX's polling. Passed in
 * (shared/app/services.ts builds everything on `systemClock`), so that a test moves time itself, by the step it
 * chooses, instead of waiting for it: such a test asserts what happens at an instant, and a busy machine cannot make
 * it late.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `tick` every `ms` until the returned function is called; it never keeps the process alive by itself. */
  every(ms: number, tick: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
