import { jobResultContract } from '../shared/http/contracts';
import { jobResult } from '../shared/export/job-views';
import { endpoint } from '../shared/http/endpoint';
import { registerHttp } from '../shared/http/register';

registerHttp(
  jobResultContract,
  endpoint(jobResultContract, async ({ client, query, services }) => ({
    status: 200,
    json: await jobResult(services.jobs, client, query.jobId),
  })),
);
