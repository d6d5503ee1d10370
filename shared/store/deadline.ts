import { AsyncLocalStorage } from 'node:async_hooks';
import type { TableServiceClientOptions } from '@azure/data-tables';
import { Clock, systemClock } from '../time/clock';

/**
 * A time budget for the storage calls made on behalf of one piece of work (an HTTP request), carried through its async
 * calls so that every storage client honours it without each call site passing a signal: a storage outage then costs
 * a request at most its budget, and the request answers 503 in time instead of hanging or answering late.
 */
const budget = new AsyncLocalStorage<{ end: number; clock: Pick<Clock, 'now'> }>();

/** Runs `work` with every storage call inside it bounded to end within `ms` from now, on `clock`'s time. */
export function withDeadline<T>(
  ms: number,
  work: () => Promise<T>,
  clock: Pick<Clock, 'now'> = systemClock,
): Promise<T> {
  return budget.run({ end: clock.now() + ms, clock }, work);
}

/** The budget ran out before a storage call could start. */
export class DeadlineExceeded extends Error {
  constructor() {
    super('the time budget for storage calls is spent');
    this.name = 'DeadlineExceeded';
  }
}

function remainingMs(): number | undefined {
  const deadline = budget.getStore();
  return deadline === undefined ? undefined : deadline.end - deadline.clock.now();
}

/** An abort signal firing at the deadline, if there is one: it also cuts a retry's wait short. */
export function deadlineSignal(): AbortSignal | undefined {
  const left = remainingMs();
  if (left === undefined) return undefined;
  if (left <= 0) throw new DeadlineExceeded();
  return AbortSignal.timeout(left);
}

/** The time-out of one try: `perTryMs`, or less if the deadline comes first. */
export function tryTimeoutMs(perTryMs: number): number {
  const left = remainingMs();
  if (left === undefined) return perTryMs;
  if (left <= 0) throw new DeadlineExceeded();
  return Math.min(perTryMs, left);
}

type SignalLike = Pick<AbortSignal, 'aborted' | 'addEventListener'>;

/** A signal that fires when either does (the SDK's own signal type is not always a DOM AbortSignal). */
function either(a: SignalLike, b: AbortSignal): AbortSignal {
  const both = new AbortController();
  const abort = () => both.abort();
  if (a.aborted || b.aborted) abort();
  a.addEventListener('abort', abort, { once: true });
  b.addEventListener('abort', abort, { once: true });
  return both.signal;
}

/**
 * Pipeline policies for the Azure SDK clients built on core-rest-pipeline (tables): each try gets a time-out (the
 * SDKs have none, so a storage that accepts connections and never answers would hold a call forever), and the call
 * as a whole, retries and their waits included, ends at the deadline.
 */
export function timeoutPolicies(perTryMs: number): NonNullable<TableServiceClientOptions['additionalPolicies']> {
  return [
    {
      position: 'perCall',
      policy: {
        name: 'siexDeadline',
        sendRequest(request, next) {
          const signal = deadlineSignal();
          if (signal) request.abortSignal = request.abortSignal ? either(request.abortSignal, signal) : signal;
          return next(request);
        },
      },
    },
    {
      position: 'perRetry',
      policy: {
        name: 'siexTryTimeout',
        sendRequest(request, next) {
          request.timeout = tryTimeoutMs(perTryMs);
          return next(request);
        },
      },
    },
  ];
}
