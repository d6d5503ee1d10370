import { z } from 'zod';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { recordVersionSchema } from '../../api/history-schemas';
import { Contract } from '../contract';
import { KindContractParts } from './record-parts';

/** Every version of a record of a kind, kept after it is deleted. */
export function historyContract({ entry, http, routes, params }: KindContractParts) {
  return {
    ...routes.history,
    summary: `Every version of ${entry.label.a}`,
    description:
      'Oldest first: when, which client, what happened (created, amended, deleted, exported, re-exported) and every ' +
      'field that changed with its old and new value. Kept after the record is deleted.',
    params,
    query: agrifarmQuerySchema,
    success: { status: 200, description: "the record's versions", schema: z.array(recordVersionSchema) },
    errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND', 'INVALID_VALUE', 'REQUIRED'],
    example: http.examples.history,
  } satisfies Contract;
}
