import { z } from 'zod';
import { agrifarmQuerySchema } from '../../api/farm-schemas';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';
import { KindContractParts } from './record-parts';

/** The read of one record of a kind: the record as registration and amendment answer it, with its ETag. */
export function readContract({ entry, http, routes, params }: KindContractParts) {
  return {
    ...routes.read,
    summary: `One ${entry.label.one}`,
    description:
      'The record as registration and amendment answer it (in an array), with its `ETag` for `If-Match`. A record of ' +
      'another farm campaign or client, a deleted one and an unknown one are the same 404 RECORD_NOT_FOUND.',
    params,
    query: agrifarmQuerySchema,
    success: { status: 200, description: 'the record', schema: z.array(http.view), headers: ETAG_HEADER },
    errors: ['AGRIFARM_NOT_FOUND', 'RECORD_NOT_FOUND'],
    example: http.examples.read,
  } satisfies Contract;
}
