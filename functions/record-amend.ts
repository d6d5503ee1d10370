import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';
import { KindEntry } from '../shared/records/kind-entry';

/** PATCH one record of a kind: a merge patch of its request, judged whole, under If-Match. */
export const amendRecord =
  (kind: KindEntry): HandleOf<KindContracts['amend'], UseCases> =>
  async ({ client, params, query, body, request }, useCases) =>
    recordReply(
      await useCases.records(kind).amend({
        client,
        agrifarmId: query.agrifarmId,
        recordId: recordIdOf(params.id, kind.urnType),
        ifMatch: request.headers.get('if-match'),
        idempotencyKey: idempotencyKey(request),
        patch: body,
      }),
    );

export const handlerOf = (kind: KindEntry): HttpHandler => serve(recordContracts(kind).amend, amendRecord(kind));
