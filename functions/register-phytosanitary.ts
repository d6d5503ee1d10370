import { UseCases } from '../shared/app/use-cases';
import { registerPhyto } from '../shared/http/contracts/register-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { serve } from '../shared/app/serve';
import { recordReply } from '../shared/http/record-reply';

export const registerPhytosanitary: HandleOf<typeof registerPhyto, UseCases> = async (
  { client, query, body, request },
  useCases,
) => {
  const result = await useCases.registerApplication({
    client,
    agrifarmId: query.agrifarmId,
    exported: query.exported === 1,
    body,
    idempotencyKey: idempotencyKey(request),
  });
  return recordReply(result);
};

export const handler = serve(registerPhyto, registerPhytosanitary);
