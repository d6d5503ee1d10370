import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';
import { KindEntry } from '../shared/records/kind-entry';

/** DELETE one record of a kind: 204 at once, or 202 with the job that deletes it in SIEX first. */
export const deleteRecord =
  (kind: KindEntry): HandleOf<KindContracts['delete'], UseCases> =>
  async ({ client, params, query, request }, useCases) => {
    const result = await useCases.records(kind).delete({
      client,
      agrifarmId: query.agrifarmId,
      recordId: recordIdOf(params.id, kind.urnType),
      ifMatch: request.headers.get('if-match'),
      idempotencyKey: idempotencyKey(request),
    });
    return result.outcome === 'deleted' ? { status: 204, empty: true } : recordReply(result);
  };

export const handlerOf = (kind: KindEntry): HttpHandler => serve(recordContracts(kind).delete, deleteRecord(kind));
