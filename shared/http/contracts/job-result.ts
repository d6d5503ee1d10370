import { jobResultExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { jobQuerySchema, jobResultSchema } from '../../api/export-schemas';

export const jobResultContract = {
  ...CORE_ROUTES.jobResult,
  summary: 'Per-record outcome of a settled export job',
  description:
    '`data` lists accepted records (`result: "ok"`, `id`: the record id), `error` the others with a code and message. ' +
    'Before the job settles (status 1 or 2) the answer is 409 JOB_NOT_FINISHED with Retry-After.',
  query: jobQuerySchema,
  success: { status: 200, description: 'the outcome', schema: jobResultSchema },
  errors: ['INVALID_VALUE', 'REQUIRED', 'JOB_NOT_FOUND', 'JOB_NOT_FINISHED'],
  example: jobResultExample,
} satisfies Contract;
