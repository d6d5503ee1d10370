import { registerHttp } from '../shared/app/register-http';
import { UseCases } from '../shared/app/use-cases';
import { cacheableReply } from '../shared/http/conditional';
import { siexCatalogue } from '../shared/http/contracts';
import { HandleOf } from '../shared/http/endpoint';
import { paginationHeaders } from '../shared/http/pagination';

export const listSiexCatalogue: HandleOf<typeof siexCatalogue, UseCases> = async (
  { params, query, request },
  useCases,
) => {
  const answer = await useCases.siexCatalogue(params.name, Object.fromEntries(request.query.entries()), query);
  return cacheableReply(request, answer, paginationHeaders(request.url, answer.total, answer.page));
};

registerHttp(siexCatalogue, listSiexCatalogue);
