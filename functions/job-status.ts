import { UseCases } from '../shared/app/use-cases';
import { jobStatus } from '../shared/http/contracts/job-status';
import { HandleOf } from '../shared/http/endpoint';
import { jobView } from '../shared/http/job-answers';
import { serve } from '../shared/app/serve';

export const readJobStatus: HandleOf<typeof jobStatus, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: jobView(await useCases.jobStatus(client, query.jobId)),
});

export const handler = serve(jobStatus, readJobStatus);
