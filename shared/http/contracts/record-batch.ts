import { z } from 'zod';
import { batchBodySchemaOf, MAX_BATCH_ITEMS } from '../../api/batch-schemas';
import { registerQuerySchema } from '../../api/record-fields';
import { Contract } from '../contract';
import { problemSchema } from '../problem';
import { KindContractParts } from './record-parts';

/** A batch's answer: each item's outcome as a single registration of the kind would have answered it. */
function batchAnswerSchema(urnType: string, view: z.ZodType) {
  return z
    .array(
      z.object({
        index: z.number().int().describe("the item's position in the request, from 0"),
        status: z
          .number()
          .int()
          .describe('what registering the item alone would have answered: 201, or the error status'),
        etag: z.string().optional().describe("the record's ETag, when it was stored"),
        body: z
          .union([z.array(view), problemSchema])
          .describe('the record as a one-item array (201), or the problem details'),
      }),
    )
    .meta({ id: `${urnType}BatchResult` });
}

/** Up to MAX_BATCH_ITEMS registrations of a kind in one request, each judged as if alone, in order. */
export function batchContract({ entry, http, routes }: KindContractParts) {
  return {
    ...routes.batch,
    summary: `Register up to ${MAX_BATCH_ITEMS} ${entry.label.many} in one request`,
    description:
      `A JSON array of 1 to ${MAX_BATCH_ITEMS} registrations (within the 1 MB body limit), one request of the rate limit. ` +
      `Each item is judged exactly as if it were registered alone, in array order: a later item counts ${http.batchCounts}. ` +
      'Each stored item is its own transaction; a refused ' +
      'item stores nothing and does not stop the others. Answers 200 with `[{ index, status, etag, body }]`: for each ' +
      'item the status and body a single registration would have answered (201 and the record as a one-item array, or ' +
      'the problem details with their status). An `Idempotency-Key` covers the whole batch: a retry with the same key ' +
      'and array stores nothing twice, even when the first attempt stopped half-way (each stored item answers as it ' +
      'did first; an item refused then is judged again); the same key with another array is 422 for the whole batch. ' +
      'A failure of the gateway itself (storage unavailable) answers the batch with its status: retry it under the same key.',
    query: registerQuerySchema,
    body: batchBodySchemaOf(entry.urnType, http.request),
    success: {
      status: 200,
      description: "each item's outcome, in request order",
      schema: batchAnswerSchema(entry.urnType, http.view),
    },
    errors: ['AGRIFARM_NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
    idempotent: true,
    example: http.examples.batch,
  } satisfies Contract;
}
