import { exportResponseSchema } from '../../api/export-schemas';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { Contract } from '../contract';

/**
 * What the deletion of a record answers, whatever its kind (treatment, fertilization): at once, or through SIEX with a
 * job. Each kind's contract spreads it and adds its texts, path parameters, route and example.
 */
export const recordDeleteParts = {
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
} satisfies Partial<Contract>;
