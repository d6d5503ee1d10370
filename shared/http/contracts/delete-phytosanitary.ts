import { deleteExample } from '../../api/examples';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { recordParamsSchema } from '../../api/phyto-schemas';
import { exportResponseSchema } from '../../api/export-schemas';

export const deletePhyto = {
  ...ROUTES.deletePhytosanitary,
  summary: 'Delete a phytosanitary application',
  description:
    'A record SIEX never received is deleted at once: 204, and it leaves the list and the count and interval rules. ' +
    'A record SIEX holds (exported, or registered with exported=1) is deleted there first: 202 with a job, as the ' +
    'export answers, which sends it to SIEX with `Borrar: true`; follow it with jobstatus and jobresult, and the ' +
    'outcome e-mail comes as for exports. The record leaves the list and the rules when SIEX accepted the deletion. ' +
    'Its history stays readable. A deleted record is 404; one in an unfinished export is 409.',
  params: recordParamsSchema,
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
  example: deleteExample,
} satisfies Contract;
