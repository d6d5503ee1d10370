import { app, InvocationContext } from '@azure/functions';
import { services } from '../shared/app/services';
import { failExportJob, runExportJob } from '../shared/export/worker';
import { EXPORT_POISON_QUEUE, EXPORT_QUEUE } from '../shared/store/queues';

/** The queue message carries the job id only; everything else is in the jobs table (docs/architecture.md, "Export pipeline"). */
function jobIdOf(message: unknown, context: InvocationContext): number | null {
  const jobId = Number((message as { jobId?: unknown } | null)?.jobId);
  if (Number.isSafeInteger(jobId) && jobId > 0) return jobId;
  context.error(`ignoring a message without a job id: ${JSON.stringify(message)}`);
  return null;
}

app.storageQueue('exportWorker', {
  queueName: EXPORT_QUEUE,
  connection: 'AzureWebJobsStorage',
  handler: async (message, context) => {
    const jobId = jobIdOf(message, context);
    if (jobId !== null) await runExportJob(services().worker(), jobId);
  },
});

app.storageQueue('exportPoison', {
  queueName: EXPORT_POISON_QUEUE,
  connection: 'AzureWebJobsStorage',
  handler: async (message, context) => {
    const jobId = jobIdOf(message, context);
    if (jobId !== null) await failExportJob(services().worker(), jobId);
  },
});
