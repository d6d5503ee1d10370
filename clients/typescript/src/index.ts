import createClient, { type Client } from 'openapi-fetch';
import { systemClock, type ClientClock } from './clock';
import type { JobAsync } from './errors';
import { resilientFetch, type RetryOptions } from './resilient-fetch';
import type { components, paths } from './schema';
import { waitForJob, type JobResult, type WaitOptions } from './wait-for-job';

export type { components, paths };
export type { ClientClock, JobAsync, JobResult, RetryOptions, WaitOptions };
export { GatewayUnreachableError, JobWaitTimeoutError, ProblemError, type Problem } from './errors';
export { orThrow } from './or-throw';
export type MixItem = components['schemas']['MixItem'];

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
  /** The time and waits of retries and `waitForJob` (default: the runtime's timers); a test passes its own. */
  clock?: ClientClock;
}

export interface SiexClient {
  /** Every operation of the gateway, typed from its OpenAPI document (openapi-fetch). */
  api: Client<paths>;
  /**
   * Polls job status, backing off, until the job settles (3, 4 or 5); then reads and returns its result. `onProgress`
   * sees every status read, `signal` stops the wait, `timeoutMs` bounds it (`JobWaitTimeoutError`).
   */
  waitForJob(jobId: number, options?: WaitOptions): Promise<{ job: JobAsync; result: JobResult }>;
}

export function createSiexClient(options: SiexClientOptions): SiexClient {
  const retry = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, ...options.retry };
  const clock = options.clock ?? systemClock;
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'Ocp-Apim-Sid-Key': options.sidKey, 'Ocp-Apim-Subscription-Key': options.apiKey },
    fetch: resilientFetch(options.fetch ?? fetch, retry, clock),
  });
  return { api, waitForJob: (jobId, wait) => waitForJob(api, clock, jobId, wait) };
}
