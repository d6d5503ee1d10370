import { UseCases } from '../shared/app/use-cases';
import { jobResultContract } from '../shared/http/contracts/job-result';
import { HandleOf } from '../shared/http/endpoint';
import { resultOf } from '../shared/http/job-answers';
import { serve } from '../shared/app/serve';

export const readJobResult: HandleOf<typeof jobResultContract, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: resultOf(await useCases.jobResult(client, query.jobId)),
});

export const handler = serve(jobResultContract, readJobResult);
