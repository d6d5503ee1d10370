import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { registerFertilization } from '../shared/http/contracts/register-fertilization';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordReply } from '../shared/http/record-reply';

export const registerFertilizationRecord: HandleOf<typeof registerFertilization, UseCases> = async (
  { client, query, body, request },
  useCases,
) =>
  recordReply(
    await useCases.registerFertilization({
      client,
      agrifarmId: query.agrifarmId,
      exported: query.exported === 1,
      body,
      idempotencyKey: idempotencyKey(request),
    }),
  );

export const handler = serve(registerFertilization, registerFertilizationRecord);
