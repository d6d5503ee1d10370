import { z } from 'zod';
import { registerBatchExample } from '../../api/examples';
import { MAX_BATCH_ITEMS, batchBodySchema } from '../../api/batch-schemas';
import { problemSchema } from '../problem';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { phytoRecordViewSchema, registerQuerySchema } from '../../api/phyto-schemas';

/** A batch's answer: each item's outcome as a single registration would have answered it. */
const batchAnswerSchema = z
  .array(
    z.object({
      index: z.number().int().describe("the item's position in the request, from 0"),
      status: z
        .number()
        .int()
        .describe('what registering the item alone would have answered: 201, or the error status'),
      etag: z.string().optional().describe("the record's ETag, when it was stored"),
      body: z
        .union([z.array(phytoRecordViewSchema), problemSchema])
        .describe('the record as a one-item array (201), or the problem details'),
    }),
  )
  .meta({ id: 'AgriPhytosanitaryBatchResult' });

export const registerPhytoBatch = {
  ...ROUTES.registerPhytosanitaryBatch,
  summary: 'Register up to 100 phytosanitary applications in one request',
  description:
    `A JSON array of 1 to ${MAX_BATCH_ITEMS} registrations (within the 1 MB body limit), one request of the rate limit. ` +
    'Each item is judged exactly as if it were registered alone, in array order: a later item counts the ' +
    'applications of earlier ones in the interval and count rules. Each stored item is its own transaction; a refused ' +
    'item stores nothing and does not stop the others. Answers 200 with `[{ index, status, etag, body }]`: for each ' +
    'item the status and body a single registration would have answered (201 and the record as a one-item array, or ' +
    'the problem details with their status). An `Idempotency-Key` covers the whole batch: a retry with the same key ' +
    'and array stores nothing twice, even when the first attempt stopped half-way (each stored item answers as it ' +
    'did first; an item refused then is judged again); the same key with another array is 422 for the whole batch. ' +
    'A failure of the gateway itself (storage unavailable) answers the batch with its status: retry it under the same key.',
  query: registerQuerySchema,
  body: batchBodySchema,
  success: { status: 200, description: "each item's outcome, in request order", schema: batchAnswerSchema },
  errors: ['AGRIFARM_NOT_FOUND', 'IDEMPOTENCY_KEY_REUSED'],
  idempotent: true,
  example: registerBatchExample,
} satisfies Contract;
