import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { amendPhyto } from '../shared/http/contracts/amend-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';

export const amendPhytosanitary: HandleOf<typeof amendPhyto, UseCases> = async (
  { client, params, query, body, request },
  useCases,
) => {
  const result = await useCases.amendApplication({
    client,
    agrifarmId: query.agrifarmId,
    recordId: recordIdOf(params.id, 'AgriPhytosanitary'),
    ifMatch: request.headers.get('if-match'),
    idempotencyKey: idempotencyKey(request),
    patch: body,
  });
  return recordReply(result);
};

export const handler = serve(amendPhyto, amendPhytosanitary);
