import { jobStatusExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { jobQuerySchema, jobSchema } from '../../api/export-schemas';

export const jobStatus = {
  ...CORE_ROUTES.jobStatus,
  summary: 'Status of an export job',
  description:
    'Statuses: 1 Iniciando, 2 EnProceso, 3 FinalizadoCompleto (every record accepted), 4 FinalizadoConErrores (some ' +
    'records rejected or not sendable), 5 Fallido (the job could not run; `error` says why). Transitions 1→2→3|4 and ' +
    "1|2→5. `percentage` is the share of records settled. Another client's job is 404.",
  query: jobQuerySchema,
  success: { status: 200, description: 'the job', schema: jobSchema },
  errors: ['INVALID_VALUE', 'REQUIRED', 'JOB_NOT_FOUND'],
  example: jobStatusExample,
} satisfies Contract;
