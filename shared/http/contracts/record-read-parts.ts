import { z } from 'zod';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';

/** What the read of one record answers, given its kind's view schema: each kind's contract spreads it. */
export function recordReadParts(viewSchema: z.ZodType) {
  return {
    query: agrifarmQuerySchema,
    success: { status: 200, description: 'the record', schema: z.array(viewSchema), headers: ETAG_HEADER },
    errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND'],
  } satisfies Partial<Contract>;
}
