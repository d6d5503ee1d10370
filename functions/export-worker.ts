import { InvocationContext } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { failExportJob, runExportJob } from '../shared/export/worker';

/** The queue message carries the job id only; everything else is in the jobs table (docs/architecture.md, "Export pipeline"). */
function jobIdOf(message: unknown, context: InvocationContext): number | null {
  const jobId = Number((message as { jobId?: unknown } | null)?.jobId);
  if (Number.isSafeInteger(jobId) && jobId > 0) return jobId;
  context.error(`ignoring a message without a job id: ${JSON.stringify(message)}`);
  return null;
}

/** One delivery of an export job: runs it as far as it can go; a throw gives the message back to the queue. */
export async function exportWorker(message: unknown, context: InvocationContext): Promise<void> {
  const jobId = jobIdOf(message, context);
  if (jobId !== null)
    await runExportJob({ ...(await processApp().worker()), log: (line) => context.warn(line) }, jobId);
}

/** A job whose every delivery failed: settled as Fallido, and its owner told. */
export async function exportPoison(message: unknown, context: InvocationContext): Promise<void> {
  const jobId = jobIdOf(message, context);
  if (jobId !== null)
    await failExportJob({ ...(await processApp().worker()), log: (line) => context.warn(line) }, jobId);
}
