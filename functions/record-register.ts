import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { recordReply } from '../shared/http/record-reply';
import { KindEntry } from '../shared/records/kind-entry';

/** POST to a kind's collection: one record judged by the kind's rules and stored, with its ETag. */
export const registerRecord =
  (kind: KindEntry): HandleOf<KindContracts['register'], UseCases> =>
  async ({ client, query, body, request }, useCases) =>
    recordReply(
      await useCases.records(kind).register({
        client,
        agrifarmId: query.agrifarmId,
        exported: query.exported === 1,
        body,
        idempotencyKey: idempotencyKey(request),
      }),
    );

export const handlerOf = (kind: KindEntry): HttpHandler => serve(recordContracts(kind).register, registerRecord(kind));
