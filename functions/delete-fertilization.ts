import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { deleteFertilization } from '../shared/http/contracts/delete-fertilization';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';

export const deleteFertilizationRecord: HandleOf<typeof deleteFertilization, UseCases> = async (
  { client, params, query, request },
  useCases,
) => {
  const result = await useCases.deleteFertilization({
    client,
    agrifarmId: query.agrifarmId,
    recordId: recordIdOf(params.id, 'AgriFertilize'),
    ifMatch: request.headers.get('if-match'),
    idempotencyKey: idempotencyKey(request),
  });
  return result.outcome === 'deleted' ? { status: 204, empty: true } : recordReply(result);
};

export const handler = serve(deleteFertilization, deleteFertilizationRecord);
