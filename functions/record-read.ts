import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';
import { KindEntry } from '../shared/records/kind-entry';

/** GET one record of a kind, with its ETag. */
export const readRecord =
  (kind: KindEntry): HandleOf<KindContracts['read'], UseCases> =>
  async ({ client, params, query }, useCases) =>
    recordReply(await useCases.records(kind).read(client, query.agrifarmId, recordIdOf(params.id, kind.urnType)));

export const handlerOf = (kind: KindEntry): HttpHandler => serve(recordContracts(kind).read, readRecord(kind));
