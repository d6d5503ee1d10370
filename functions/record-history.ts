import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf } from '../shared/http/record-headers';
import { KindEntry } from '../shared/records/kind-entry';

/** GET every version of one record of a kind, kept after it is deleted. */
export const recordHistory =
  (kind: KindEntry): HandleOf<KindContracts['history'], UseCases> =>
  async ({ client, params, query }, useCases) => ({
    status: 200,
    json: await useCases.records(kind).history(client, query.agrifarmId, recordIdOf(params.id, kind.urnType)),
  });

export const handlerOf = (kind: KindEntry): HttpHandler => serve(recordContracts(kind).history, recordHistory(kind));
