import { systemClock } from '../time/clock';
import {
  ExponentialBackoff,
  IBackoff,
  IBackoffFactory,
  IRetryBackoffContext,
  handleWhen,
  noJitterGenerator,
  retry,
} from 'cockatiel';

/**
 * Retries with exponential backoff and full jitter (the AWS architecture blog's "full jitter": wait a uniformly random
 * time between 0 and min(cap, base * 2^n)), so that many workers failing at once do not come back in lockstep.
 * A server's Retry-After wins over the computed delay. Transport-agnostic: the caller says what is worth retrying.
 * The loop, the backoff and the wait are cockatiel's; this module adds what it lacks: Retry-After, and an end at once
 * when the caller's signal fires during a wait (cockatiel's wait does not watch the signal).
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

/**
 * A Retry-After header in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or
 * unreadable. A date in the past means "now".
 */
export function parseRetryAfter(value: string | null | undefined, now: number = systemClock.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; without letters, Date.parse would take "-5" for a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

type BackoffContext = IRetryBackoffContext<unknown>;

/**
 * Full jitter over cockatiel's doubling ceiling: retry n waits uniformly in [0, min(max, base * 2^(n-1))), unless the
 * failure carried a Retry-After, which is waited instead. The ceiling doubles per retry either way.
 */
function jitteredBackoff(
  policy: RetryPolicy,
  classify: (error: unknown) => RetryVerdict,
  random: () => number,
): IBackoffFactory<BackoffContext> {
  const exponential = new ExponentialBackoff<number>({
    initialDelay: policy.baseDelayMs,
    maxDelay: policy.maxDelayMs,
    generator: (state, options) => {
      const [ceiling, next] = noJitterGenerator(state, options);
      return [Math.floor(random() * ceiling), next];
    },
  });
  const honouringRetryAfter = (computed: IBackoffFactory<unknown>): IBackoffFactory<BackoffContext> => ({
    next(context): IBackoff<BackoffContext> {
      const following = computed.next(context);
      const retryAfterMs = 'error' in context.result ? classify(context.result.error).retryAfterMs : undefined;
      return { duration: retryAfterMs ?? following.duration, next: (c) => honouringRetryAfter(following).next(c) };
    },
  });
  return honouringRetryAfter(exponential);
}

/** `run`, or RetryAbortedError as soon as `signal` fires; `run`'s own later end is then of no interest. */
function untilAborted<T>(run: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RetryAbortedError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
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
  if (signal?.aborted) throw new RetryAbortedError(signal.reason);
  const worthRetrying = (error: unknown) => {
    const verdict = classify(error);
    return verdict.retry && (verdict.retryAfterMs ?? 0) <= policy.maxRetryAfterMs;
  };
  const policyRun = retry(handleWhen(worthRetrying), {
    maxAttempts: policy.maxAttempts - 1,
    backoff: jitteredBackoff(policy, classify, hooks.random ?? Math.random),
  })
    // A wait the caller's signal cut short must not keep the process alive.
    .dangerouslyUnref();
  policyRun.onRetry((r) => {
    if ('error' in r) hooks.onRetry?.({ attempt: r.attempt, error: r.error, delayMs: r.delay });
  });
  const run = policyRun.execute(({ attempt: retries }) => {
    if (signal?.aborted) throw new RetryAbortedError(signal.reason);
    return attempt(retries + 1);
  }, signal);
  try {
    return await (signal ? untilAborted(run, signal) : run);
  } catch (error) {
    if (signal?.aborted && !(error instanceof RetryAbortedError)) throw new RetryAbortedError(signal.reason);
    throw error;
  } finally {
    run.catch(() => undefined);
  }
}
