import type { Client } from 'openapi-fetch';
import type { ClientClock } from './clock';
import { JobWaitTimeoutError, type JobAsync } from './errors';
import { orThrow } from './or-throw';
import type { components, paths } from './schema';

export type JobResult = components['schemas']['JobResult'];

export interface WaitOptions {
  /** First pause between two job status reads (default 500 ms); it grows by half each time up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  /** Give up after this long (default 10 minutes) with a `JobWaitTimeoutError`. */
  timeoutMs?: number;
  /** Called with every job status read, settled or not (its `percentage` is the share of records settled). */
  onProgress?: (job: JobAsync) => void;
  /** Stops the wait, and the request in flight, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** The job statuses that end a job: 3 FinalizadoCompleto, 4 FinalizadoConErrores, 5 Fallido. */
const SETTLED = new Set(['3', '4', '5']);

/** Polls job status, backing off, until the job settles; then reads and returns its result. */
export async function waitForJob(
  api: Client<paths>,
  clock: ClientClock,
  jobId: number,
  wait: WaitOptions = {},
): Promise<{ job: JobAsync; result: JobResult }> {
  const { signal } = wait;
  const deadline = clock.now() + (wait.timeoutMs ?? 10 * 60_000);
  let interval = wait.intervalMs ?? 500;
  for (;;) {
    signal?.throwIfAborted();
    const job = await orThrow(api.GET('/api-service/v1/entities/jobstatus', { params: { query: { jobId } }, signal }));
    wait.onProgress?.(job);
    if (SETTLED.has(job.status.id)) {
      const result = await orThrow(
        api.GET('/api-service/v1/entities/jobresult', { params: { query: { jobId } }, signal }),
      );
      return { job, result };
    }
    if (clock.now() + interval > deadline) throw new JobWaitTimeoutError(job);
    await clock.sleep(interval, signal);
    interval = Math.min(wait.maxIntervalMs ?? 5000, interval * 1.5);
  }
}
