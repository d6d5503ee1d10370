import { UseCases } from '../shared/app/use-cases';
import { jobStatus } from '../shared/http/contracts';
import { HandleOf } from '../shared/http/endpoint';
import { registerHttp } from '../shared/app/register-http';

export const readJobStatus: HandleOf<typeof jobStatus, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: await useCases.jobStatus(client, query.jobId),
});

registerHttp(jobStatus, readJobStatus);
