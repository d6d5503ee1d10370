import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { renderBatchAnswer } from '../shared/http/batch-answer';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { idempotencyKey } from '../shared/http/idempotency';
import { KindEntry } from '../shared/records/kind-entry';

/** POST to a kind's `/batch`: each item registered as if alone, in order, answered item by item. */
export const registerRecordBatch =
  (kind: KindEntry): HandleOf<KindContracts['batch'], UseCases> =>
  async ({ client, query, body, request }, useCases) => {
    const outcomes = await useCases.records(kind).batch({
      client,
      agrifarmId: query.agrifarmId,
      exported: query.exported === 1,
      items: body,
      idempotencyKey: idempotencyKey(request),
    });
    return { status: 200, rawJson: renderBatchAnswer(outcomes) };
  };

export const handlerOf = (kind: KindEntry): HttpHandler =>
  serve(recordContracts(kind).batch, registerRecordBatch(kind));
