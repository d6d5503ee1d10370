import { z } from 'zod';
import { Contract } from '../contract';
import { PAGINATION_HEADERS } from '../pagination';

/**
 * What the list of a record kind answers, given its view schema: an array with the paging in headers. Each kind's
 * contract spreads it and adds its own query (filters differ by kind).
 */
export function recordListParts(viewSchema: z.ZodType) {
  return {
    success: { status: 200, description: 'the records', schema: z.array(viewSchema), headers: PAGINATION_HEADERS },
    errors: ['AGRIFARM_NOT_FOUND', 'PAGINATION_PAIR', 'INVALID_DATE', 'INVALID_VALUE'],
  } satisfies Partial<Contract>;
}
