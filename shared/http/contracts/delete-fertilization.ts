import { deleteFertilizationExample } from '../../api/examples';
import { exportResponseSchema } from '../../api/export-schemas';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { fertilizationParamsSchema } from '../../api/fertilization-schemas';
import { Contract } from '../contract';
import { ROUTES } from '../routes';

export const deleteFertilization = {
  ...ROUTES.deleteFertilization,
  summary: 'Delete a fertilization',
  description:
    'As a treatment: a record SIEX never received is deleted at once (204) and its nitrogen leaves the limit; one ' +
    'SIEX holds is deleted there first, 202 with a job that sends it with `Borrar: true`, and leaves the list and the ' +
    'limit once SIEX accepted. Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  params: fertilizationParamsSchema,
  query: agrifarmQuerySchema,
  success: { status: 204, description: 'deleted' },
  alsoSuccess: [{ status: 202, description: 'the deletion is being sent to SIEX', schema: exportResponseSchema }],
  errors: [
    'AGRIFARM_NOT_FOUND',
    'RECORD_NOT_FOUND',
    'RECORD_IN_EXPORT',
    'RECORD_OUTCOME_UNKNOWN',
    'PRECONDITION_FAILED',
    'QUEUE_UNAVAILABLE',
    'IDEMPOTENCY_KEY_REUSED',
    'CONCURRENT_UPDATE',
  ],
  idempotent: true,
  ifMatch: true,
  example: deleteFertilizationExample,
} satisfies Contract;
