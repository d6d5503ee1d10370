import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
/** RFC 9457 problem details, as every error of the gateway answers: `errors` lists every violation with its code. */
export type Problem = components['schemas']['Problem'];
export type JobAsync = components['schemas']['JobAsync'];
export type JobResult = components['schemas']['JobResult'];
export type MixItem = components['schemas']['MixItem'];

/** An answer that is not a success, with its problem details. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(problem ? `${status} ${problem.title}: ${problem.detail}` : `HTTP ${status}`);
    this.name = 'ProblemError';
  }

  /** The stable codes of the violations (`DOSE_ABOVE_MAX`, `RATE_LIMITED`, ...). */
  get codes(): string[] {
    return this.problem?.errors.map((e) => e.code) ?? [];
  }
}

export interface RetryOptions {
  /** Tries in all, the first included (default 5). */
  attempts?: number;
  /** First backoff step (default 500 ms); each retry doubles it, up to `maxDelayMs`, with full jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface SiexClientOptions {
  /** The gateway's address, e.g. `https://apim-siex.azure-api.net` (no trailing path). */
  baseUrl: string;
  /** The client's `Ocp-Apim-Sid-Key`. */
  sidKey: string;
  /** The client's `Ocp-Apim-Subscription-Key`. */
  apiKey: string;
  retry?: RetryOptions;
  /** The fetch to send requests with (default: the global one). */
  fetch?: typeof fetch;
}

export interface WaitOptions {
  /** First pause between two job status reads (default 500 ms); it grows by half each time up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
}

export interface SiexClient {
  /** Every operation of the gateway, typed from its OpenAPI document (openapi-fetch). */
  api: Client<paths>;
  /** Polls job status, backing off, until the job settles (3, 4 or 5); then reads and returns its result. */
  waitForJob(jobId: number, options?: WaitOptions): Promise<{ job: JobAsync; result: JobResult }>;
}

const SETTLED = new Set(['3', '4', '5']);
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the spec's client guidance retries: 429 (after Retry-After), 503 and other 5xx; never another 4xx. */
function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

function retryAfterMs(response: Response): number | undefined {
  const value = response.headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * A fetch that rides out what the spec says to retry. Each write gets a fresh `Idempotency-Key` (unless the caller
 * set one), sent unchanged on every retry of that call, so a retried request never creates a second record or job.
 */
function resilientFetch(send: typeof fetch, retry: Required<RetryOptions>): (request: Request) => Promise<Response> {
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
        // The connection failed: the request may or may not have arrived, which the idempotency key makes safe.
        if (last || request.signal.aborted) throw e;
        await sleep(backoff);
        continue;
      }
      if (last || !retryable(response.status)) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response) ?? backoff);
    }
  };
}

/** Throws the problem details of an answer that is not a success; returns its data otherwise. */
export async function orThrow<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ProblemError(response.status, error as Problem | undefined);
  return data;
}

export function createSiexClient(options: SiexClientOptions): SiexClient {
  const retry = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, ...options.retry };
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'Ocp-Apim-Sid-Key': options.sidKey, 'Ocp-Apim-Subscription-Key': options.apiKey },
    fetch: resilientFetch(options.fetch ?? fetch, retry),
  });

  async function waitForJob(jobId: number, wait: WaitOptions = {}): Promise<{ job: JobAsync; result: JobResult }> {
    const deadline = Date.now() + (wait.timeoutMs ?? 10 * 60_000);
    let interval = wait.intervalMs ?? 500;
    for (;;) {
      const job = await orThrow(api.GET('/api-service/v1/entities/jobstatus', { params: { query: { jobId } } }));
      if (SETTLED.has(job.status.id)) {
        const result = await orThrow(api.GET('/api-service/v1/entities/jobresult', { params: { query: { jobId } } }));
        return { job, result };
      }
      if (Date.now() + interval > deadline)
        throw new Error(`job ${jobId} has not settled in time (${job.status.name}, ${job.percentage}%)`);
      await sleep(interval);
      interval = Math.min(wait.maxIntervalMs ?? 5000, interval * 1.5);
    }
  }

  return { api, waitForJob };
}
