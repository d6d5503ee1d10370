import { z } from 'zod';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { recordVersionSchema } from '../../api/history-schemas';
import { Contract } from '../contract';

/** What the history of one record answers, whatever its kind: each kind's contract spreads it. */
export const recordHistoryParts = {
  query: agrifarmQuerySchema,
  success: { status: 200, description: "the record's versions", schema: z.array(recordVersionSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND', 'INVALID_VALUE', 'REQUIRED'],
} satisfies Partial<Contract>;
