import {
  RetryAbortedError,
  RetryPolicy,
  backoffDelay,
  parseRetryAfter,
  withRetry,
} from '../../shared/http-client/retry';

const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

class Transient extends Error {
  constructor(readonly retryAfterMs?: number) {
    super('transient');
  }
}
class Permanent extends Error {}

const classify = (e: unknown) =>
  e instanceof Transient
    ? { retry: true, ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}) }
    : { retry: false };

/** An attempt function that fails with the given errors in turn, then answers 'ok'. */
function script(...failures: Error[]) {
  const calls: number[] = [];
  const fn = async (n: number) => {
    calls.push(n);
    const f = failures.shift();
    if (f) throw f;
    return 'ok';
  };
  return { fn, calls };
}

describe('backoffDelay (full jitter)', () => {
  it('is random in [0, min(max, base * 2^(retry-1))): the ceiling doubles per retry and stops at the cap', () => {
    const almostOne = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((r) => backoffDelay(r, policy, almostOne))).toEqual([99, 199, 399, 799, 999, 999]);
    expect([1, 2, 3, 4, 5, 6].map((r) => backoffDelay(r, policy, () => 0))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });

  it('stays within its bounds for any random value', () => {
    for (let i = 0; i < 1000; i++) {
      const retry = 1 + (i % 8);
      const d = backoffDelay(retry, policy);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)));
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-01T10:00:00Z');
  it('reads delta-seconds and HTTP dates, in milliseconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 01 Mar 2025 10:00:07 GMT', now)).toBe(7000);
  });
  it('takes a date in the past as now, and ignores what it cannot read', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('withRetry', () => {
  const hooks = (delays: number[], random = () => 0.5) => ({
    sleep: async (ms: number) => void delays.push(ms),
    random,
  });

  it('retries transient failures with full-jitter delays and returns the first success', async () => {
    const delays: number[] = [];
    const { fn, calls } = script(new Transient(), new Transient(), new Transient());
    await expect(withRetry(fn, classify, policy, hooks(delays))).resolves.toBe('ok');
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(delays).toEqual([50, 100, 200]);
  });

  it('gives up after maxAttempts tries in all and rethrows the last error as it was', async () => {
    const delays: number[] = [];
    const last = new Transient();
    const { fn, calls } = script(
      new Transient(),
      new Transient(),
      new Transient(),
      new Transient(),
      last,
      new Transient(),
    );
    await expect(withRetry(fn, classify, policy, hooks(delays))).rejects.toBe(last);
    expect(calls).toEqual([1, 2, 3, 4, 5]);
    expect(delays).toHaveLength(4);
  });

  it('does not retry what the classifier calls permanent', async () => {
    const delays: number[] = [];
    const permanent = new Permanent('400');
    const { fn, calls } = script(new Transient(), permanent);
    await expect(withRetry(fn, classify, policy, hooks(delays))).rejects.toBe(permanent);
    expect(calls).toEqual([1, 2]);
    expect(delays).toHaveLength(1);
  });

  it('waits what Retry-After says instead of the computed delay', async () => {
    const delays: number[] = [];
    const { fn } = script(new Transient(3000), new Transient(), new Transient(0));
    await withRetry(
      fn,
      classify,
      policy,
      hooks(delays, () => 0.999),
    );
    expect(delays).toEqual([3000, 199, 0]);
  });

  it('ends the retries at once when Retry-After is longer than maxRetryAfterMs', async () => {
    const delays: number[] = [];
    const tooLong = new Transient(60_000);
    const { fn, calls } = script(tooLong);
    await expect(withRetry(fn, classify, policy, hooks(delays))).rejects.toBe(tooLong);
    expect(calls).toEqual([1]);
    expect(delays).toEqual([]);
  });

  it('with maxAttempts 1 tries once', async () => {
    const { fn, calls } = script(new Transient());
    await expect(withRetry(fn, classify, { ...policy, maxAttempts: 1 }, hooks([]))).rejects.toBeInstanceOf(Transient);
    expect(calls).toEqual([1]);
  });

  it('tells onRetry about every wait', async () => {
    const seen: { attempt: number; delayMs: number }[] = [];
    const { fn } = script(new Transient(), new Transient(700));
    await withRetry(fn, classify, policy, {
      ...hooks([]),
      onRetry: ({ attempt, delayMs }) => seen.push({ attempt, delayMs }),
    });
    expect(seen).toEqual([
      { attempt: 1, delayMs: 50 },
      { attempt: 2, delayMs: 700 },
    ]);
  });

  it('stops with RetryAbortedError when the signal is aborted during a wait (real sleep)', async () => {
    const controller = new AbortController();
    const { fn, calls } = script(new Transient(), new Transient());
    // Aborted once the wait of 10 s has begun: only the abort can end it before jest's 5 s time-out.
    const run = withRetry(
      fn,
      classify,
      { ...policy, baseDelayMs: 10_000, maxDelayMs: 10_000 },
      { random: () => 0.99, onRetry: () => setImmediate(() => controller.abort(new Error('shutting down'))) },
      controller.signal,
    );
    await expect(run).rejects.toBeInstanceOf(RetryAbortedError);
    expect(calls).toEqual([1]);
  });

  it('does not start when the signal is already aborted', async () => {
    const { fn, calls } = script();
    await expect(withRetry(fn, classify, policy, {}, AbortSignal.abort())).rejects.toBeInstanceOf(RetryAbortedError);
    expect(calls).toEqual([]);
  });
});
