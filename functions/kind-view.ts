import { HttpHandler } from '@azure/functions';
import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { ViewContract, viewContract } from '../shared/http/contracts/kind-view';
import { HandleOf } from '../shared/http/endpoint';
import { ViewEntry } from '../shared/records/kind-entry';

/** GET a view of the caller's farm campaign that a kind brings: every crop location, by idcp. */
export const answerView =
  (view: ViewEntry): HandleOf<ViewContract, UseCases> =>
  async ({ client, query }, useCases) => ({ status: 200, json: await useCases.view(view)(client, query) });

export const handlerOf = (view: ViewEntry): HttpHandler => serve(viewContract(view), answerView(view));
