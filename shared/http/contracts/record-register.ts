import { z } from 'zod';
import { registerQuerySchema } from '../../api/record-fields';
import { Contract } from '../contract';
import { ETAG_HEADER } from '../record-headers';
import { KindContractParts } from './record-parts';

/** The registration of one record of a kind, judged by its rules and stored (201), under an Idempotency-Key. */
export function registerContract({ entry, http, routes }: KindContractParts) {
  return {
    ...routes.register,
    summary: `Register ${entry.label.a}`,
    description: http.descriptions.register,
    query: registerQuerySchema,
    body: http.request,
    success: {
      status: 201,
      description: 'the created record, as a one-item array',
      schema: z.array(http.view),
      headers: ETAG_HEADER,
    },
    errors: [...http.errors.register],
    idempotent: true,
    example: http.examples.register,
  } satisfies Contract;
}
