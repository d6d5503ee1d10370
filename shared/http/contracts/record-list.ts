import { z } from 'zod';
import { Contract } from '../contract';
import { PAGINATION_HEADERS } from '../pagination';
import { KindContractParts } from './record-parts';

/** The list of a kind's records in a farm campaign: an array, the paging in headers, the kind's own filters. */
export function listContract({ entry, http, routes }: KindContractParts) {
  return {
    ...routes.list,
    summary: `List the ${entry.label.many} of a farm campaign`,
    description: http.descriptions.list,
    query: http.listQuery,
    success: { status: 200, description: 'the records', schema: z.array(http.view), headers: PAGINATION_HEADERS },
    errors: ['AGRIFARM_NOT_FOUND', 'PAGINATION_PAIR', 'INVALID_DATE', 'INVALID_VALUE'],
    example: http.examples.list,
  } satisfies Contract;
}
