import { UseCases } from '../shared/app/use-cases';
import { registerPhyto } from '../shared/http/contracts/register-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { serve } from '../shared/app/serve';
import { withEtag } from '../shared/http/record-headers';

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
  return { status: result.status, rawJson: result.body, headers: withEtag(result.etag) };
};

export const handler = serve(registerPhyto, registerPhytosanitary);
