/**
 * Retries with exponential backoff and full jitter (the AWS architecture blog's "full jitter": wait a uniformly random
 * time between 0 and min(cap, base * 2^n)), so that many workers failing at once do not come back in lockstep.
 * A server's Retry-After wins over the computed delay. Transport-agnostic: the caller says what is worth retrying.
 */

export interface RetryPolicy {
  /** Tries in all, the first included (1 = no retry). */
  maxAttempts: number;
  /** Ceiling of the first retry's delay; doubled per retry. */
  baseDelayMs: number;
  /** Ceiling of any computed delay. */
  maxDelayMs: number;
  /**
   * The longest Retry-After honoured by waiting; a longer one ends the retries at once (the caller, e.g. a queue
   * message with its own back-off, is better placed to wait that long than an invocation holding a worker).
   */
  maxRetryAfterMs: number;
}

/** What the classifier says about one failure. */
interface RetryVerdict {
  retry: boolean;
  /** The server's Retry-After, in milliseconds, when it gave one. */
  retryAfterMs?: number;
}

interface RetryHooks {
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1), like Math.random. */
  random?: () => number;
  /** Told before each wait: the attempt that failed (1-based), the error and the delay chosen. */
  onRetry?: (info: { attempt: number; error: unknown; delayMs: number }) => void;
}

/** Thrown by `withRetry` when the caller's signal is aborted; it carries the signal's reason as `cause`. */
export class RetryAbortedError extends Error {
  constructor(cause: unknown) {
    super('aborted by the caller', { cause });
    this.name = 'RetryAbortedError';
  }
}

/** The delay before retry number `retry` (1 for the first retry): uniform in [0, min(max, base * 2^(retry-1))). */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * A Retry-After header in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or
 * unreadable. A date in the past means "now".
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; without letters, Date.parse would take "-5" for a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A sleep that ends early, rejecting with RetryAbortedError, when the signal is aborted. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new RetryAbortedError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RetryAbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, the classifier says a failure is not worth retrying, or `maxAttempts` tries
 * failed; then rethrows the last error as it was. `attempt` gets its 1-based number. An aborted `signal` stops the
 * loop with RetryAbortedError (before a try or during a wait; a try in flight sees the signal itself).
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  classify: (error: unknown) => RetryVerdict,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
  signal?: AbortSignal,
): Promise<T> {
  const sleep = hooks.sleep ?? abortableSleep;
  const random = hooks.random ?? Math.random;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw new RetryAbortedError(signal.reason);
    try {
      return await attempt(n);
    } catch (error) {
      if (signal?.aborted) throw new RetryAbortedError(signal.reason);
      const verdict = classify(error);
      if (!verdict.retry || n >= policy.maxAttempts) throw error;
      if (verdict.retryAfterMs !== undefined && verdict.retryAfterMs > policy.maxRetryAfterMs) throw error;
      const delayMs = verdict.retryAfterMs ?? backoffDelay(n, policy, random);
      hooks.onRetry?.({ attempt: n, error, delayMs });
      await sleep(delayMs, signal);
    }
  }
}
