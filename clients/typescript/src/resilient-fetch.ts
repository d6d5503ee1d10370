import type { ClientClock } from './clock';
import { GatewayUnreachableError } from './errors';

export interface RetryOptions {
  /** Tries in all, the first included (default 5). */
  attempts?: number;
  /** First backoff step (default 500 ms); each retry doubles it, up to `maxDelayMs`, with full jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** What the spec's client guidance retries: 429 (after Retry-After), 503 and other 5xx; never another 4xx. */
function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

function retryAfterMs(response: Response, now: number): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A fetch that rides out what the spec says to retry. Each write gets a fresh `Idempotency-Key` (unless the caller
 * set one), sent unchanged on every retry of that call, so a retried request never creates a second record or job.
 * A connection that fails on every try ends in a `GatewayUnreachableError` carrying the last failure.
 */
export function resilientFetch(
  send: typeof fetch,
  retry: Required<RetryOptions>,
  clock: ClientClock,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers = new Headers(request.headers);
    if (WRITES.has(request.method) && !headers.has('Idempotency-Key'))
      headers.set('Idempotency-Key', crypto.randomUUID());
    const body = request.body ? await request.arrayBuffer() : undefined;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= retry.attempts;
      const backoff = Math.random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await send(
          new Request(request.url, { method: request.method, headers, body, signal: request.signal }),
        );
      } catch (e) {
        // The caller's abort is theirs to handle as an abort, not a network failure.
        if (request.signal.aborted) throw e;
        if (last) throw new GatewayUnreachableError(request.method, request.url, attempt, e);
        // The connection failed: the request may or may not have arrived, which the idempotency key makes safe.
        await clock.sleep(backoff, request.signal);
        continue;
      }
      if (last || !retryable(response.status)) return response;
      await response.body?.cancel();
      await clock.sleep(retryAfterMs(response, clock.now()) ?? backoff, request.signal);
    }
  };
}
