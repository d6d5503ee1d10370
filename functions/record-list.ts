import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { KindContracts, recordContracts } from '../shared/http/contracts/record-contracts';
import { HandleOf } from '../shared/http/endpoint';
import { pageReply } from '../shared/http/pagination';
import { KindEntry } from '../shared/records/kind-entry';

/** GET a kind's collection: a page of the farm campaign's records, newest first, by the kind's filters. */
export const listRecords =
  (kind: KindEntry): HandleOf<KindContracts['list'], UseCases> =>
  async ({ client, query, request }, useCases) => {
    const raw = Object.fromEntries(request.query.entries());
    return pageReply(request.url, await useCases.records(kind).list(client, query.agrifarmId, raw, query));
  };

export const handlerOf = (kind: KindEntry): HttpHandler => serve(recordContracts(kind).list, listRecords(kind));
