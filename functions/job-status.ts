import { jobStatus } from '../shared/http/contracts';
import { jobView, ownJobMeta } from '../shared/export/job-views';
import { endpoint } from '../shared/http/endpoint';
import { registerHttp } from '../shared/http/register';

registerHttp(
  jobStatus,
  endpoint(jobStatus, async ({ client, query, services }) => ({
    status: 200,
    json: jobView(await ownJobMeta(services.jobs, client, query.jobId)),
  })),
);
