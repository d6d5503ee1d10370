import { UseCases } from '../shared/app/use-cases';
import { jobStatus } from '../shared/http/contracts/job-status';
import { HandleOf } from '../shared/http/endpoint';
import { serve } from '../shared/app/serve';

export const readJobStatus: HandleOf<typeof jobStatus, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: await useCases.jobStatus(client, query.jobId),
});

export const handler = serve(jobStatus, readJobStatus);
