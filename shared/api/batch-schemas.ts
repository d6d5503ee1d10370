import { z } from 'zod';

/** Registrations per batch: one request of the rate limit carries as many records as a hundred single ones. */
export const MAX_BATCH_ITEMS = 100;

/**
 * A batch of registrations of one kind (`urnType`), whose registration body is `request`. Each item is validated as a
 * registration on its own (by the service, not here), so that one malformed item is that item's 400 and the others
 * are still judged: the document names the item schema.
 */
export function batchBodySchemaOf(urnType: string, request: z.ZodType) {
  const requestId = request.meta()?.id;
  if (!requestId) throw new Error(`the registration schema of ${urnType} has no id for the document to refer to`);
  return z
    .array(
      z.unknown().meta({
        $ref: `#/$defs/${requestId}`,
        description: 'a registration, judged as if it were sent alone',
      }),
    )
    .min(1, 'at least one registration')
    .max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} registrations per batch`)
    .meta({ id: `${urnType}Batch` });
}
