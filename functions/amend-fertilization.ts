import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { amendFertilization } from '../shared/http/contracts/amend-fertilization';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';

export const amendFertilizationRecord: HandleOf<typeof amendFertilization, UseCases> = async (
  { client, params, query, body, request },
  useCases,
) =>
  recordReply(
    await useCases.amendFertilization({
      client,
      agrifarmId: query.agrifarmId,
      recordId: recordIdOf(params.id, 'AgriFertilize'),
      ifMatch: request.headers.get('if-match'),
      idempotencyKey: idempotencyKey(request),
      patch: body,
    }),
  );

export const handler = serve(amendFertilization, amendFertilizationRecord);
