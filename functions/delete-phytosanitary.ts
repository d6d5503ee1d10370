import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { deletePhyto } from '../shared/http/contracts/delete-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';

export const deletePhytosanitary: HandleOf<typeof deletePhyto, UseCases> = async (
  { client, params, query, request },
  useCases,
) => {
  const result = await useCases.deleteApplication({
    client,
    agrifarmId: query.agrifarmId,
    recordId: recordIdOf(params.id, 'AgriPhytosanitary'),
    ifMatch: request.headers.get('if-match'),
    idempotencyKey: idempotencyKey(request),
  });
  return result.outcome === 'deleted' ? { status: 204, empty: true } : recordReply(result);
};

export const handler = serve(deletePhyto, deletePhytosanitary);
