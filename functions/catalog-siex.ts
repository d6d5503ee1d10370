import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { cacheableReply } from '../shared/http/conditional';
import { siexCatalogue } from '../shared/http/contracts/catalog-siex';
import { HandleOf } from '../shared/http/endpoint';

export const listSiexCatalogue: HandleOf<typeof siexCatalogue, UseCases> = async (
  { params, query, request },
  useCases,
) =>
  cacheableReply(
    request,
    await useCases.siexCatalogue(params.name, Object.fromEntries(request.query.entries()), query),
  );

export const handler = serve(siexCatalogue, listSiexCatalogue);
