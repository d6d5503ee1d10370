import { UseCases } from '../shared/app/use-cases';
import { listPhyto } from '../shared/http/contracts/list-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { paginationHeaders } from '../shared/http/pagination';
import { serve } from '../shared/app/serve';

export const listPhytosanitary: HandleOf<typeof listPhyto, UseCases> = async ({ client, query, request }, useCases) => {
  const page = await useCases.listApplications(
    client,
    query.agrifarmId,
    Object.fromEntries(request.query.entries()),
    query,
  );
  return { status: 200, json: page.records, headers: paginationHeaders(request.url, page.total, page.page) };
};

export const handler = serve(listPhyto, listPhytosanitary);
