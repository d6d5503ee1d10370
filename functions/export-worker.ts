import { InvocationContext } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { failExportJob, runExportJob, WorkerDeps } from '../shared/export/worker';
import { invocationSink } from '../shared/log/invocation-sink';

/**
 * The queue message carries the job id, and the correlation id of the request that started the job (the job's row
 * keeps both; docs/architecture.md, "Export pipeline").
 */
function messageOf(message: unknown): { jobId: number | null; correlationId?: string } {
  const m = message as { jobId?: unknown; correlationId?: unknown } | null;
  const jobId = Number(m?.jobId);
  const correlationId = typeof m?.correlationId === 'string' && m.correlationId !== '' ? m.correlationId : undefined;
  return {
    jobId: Number.isSafeInteger(jobId) && jobId > 0 ? jobId : null,
    ...(correlationId ? { correlationId } : {}),
  };
}

/** Runs `work` on the message's job inside the invocation's log scope; a message without a job id is logged and dropped. */
function withJob(
  message: unknown,
  context: InvocationContext,
  work: (deps: WorkerDeps, jobId: number) => Promise<void>,
): Promise<void> {
  const app = processApp();
  const { jobId, correlationId } = messageOf(message);
  return app.log.within({ sink: invocationSink(context), correlationId }, async () => {
    if (jobId === null) app.log.event('message.ignored', { detail: JSON.stringify(message) }, 'error');
    else await work(await app.worker(), jobId);
  });
}

/** One delivery of an export job: runs it as far as it can go; a throw gives the message back to the queue. */
export function exportWorker(message: unknown, context: InvocationContext): Promise<void> {
  return withJob(message, context, runExportJob);
}

/** A job whose every delivery failed: settled as Fallido, and its owner told. */
export function exportPoison(message: unknown, context: InvocationContext): Promise<void> {
  return withJob(message, context, failExportJob);
}
