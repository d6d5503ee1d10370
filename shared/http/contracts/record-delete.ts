import { exportResponseSchema } from '../../api/export-schemas';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { Contract } from '../contract';
import { KindContractParts } from './record-parts';

/** The deletion of a record of a kind: at once (204), or through SIEX with a job (202). */
export function deleteContract({ entry, http, routes, params }: KindContractParts) {
  return {
    ...routes.delete,
    summary: `Delete ${entry.label.a}`,
    description: http.descriptions.delete,
    params,
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
    example: http.examples.delete,
  } satisfies Contract;
}
