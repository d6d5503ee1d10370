import { UseCases } from '../shared/app/use-cases';
import { serve } from '../shared/app/serve';
import { renderBatchAnswer } from '../shared/http/batch-answer';
import { registerPhytoBatch } from '../shared/http/contracts/register-phytosanitary-batch';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';

export const registerPhytosanitaryBatch: HandleOf<typeof registerPhytoBatch, UseCases> = async (
  { client, query, body, request },
  useCases,
) => {
  const outcomes = await useCases.registerBatch({
    client,
    agrifarmId: query.agrifarmId,
    exported: query.exported === 1,
    items: body,
    idempotencyKey: idempotencyKey(request),
  });
  return { status: 200, rawJson: renderBatchAnswer(outcomes) };
};

export const handler = serve(registerPhytoBatch, registerPhytosanitaryBatch);
