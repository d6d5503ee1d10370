import { z } from 'zod';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';
import { KindContractParts } from './record-parts';

/** The amendment of a record of a kind: a merge patch of its request, judged whole as a registration. */
export function amendContract({ entry, http, routes, params }: KindContractParts) {
  return {
    ...routes.amend,
    summary: `Correct or complete ${entry.label.a}`,
    description: http.descriptions.amend,
    params,
    query: agrifarmQuerySchema,
    body: http.patch,
    bodyTypes: ['application/merge-patch+json', 'application/json'],
    success: { status: 200, description: 'the amended record', schema: z.array(http.view), headers: ETAG_HEADER },
    errors: [
      ...(http.errors.amend ?? http.errors.register),
      'RECORD_NOT_FOUND',
      'RECORD_IN_EXPORT',
      'PRECONDITION_FAILED',
    ],
    idempotent: true,
    ifMatch: true,
    example: http.examples.amend,
  } satisfies Contract;
}
