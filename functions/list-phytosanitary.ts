import { UseCases } from '../shared/app/use-cases';
import { listPhyto } from '../shared/http/contracts/list-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { pageReply } from '../shared/http/pagination';
import { serve } from '../shared/app/serve';

export const listPhytosanitary: HandleOf<typeof listPhyto, UseCases> = async ({ client, query, request }, useCases) => {
  const page = await useCases.listApplications(
    client,
    query.agrifarmId,
    Object.fromEntries(request.query.entries()),
    query,
  );
  return pageReply(request.url, page);
};

export const handler = serve(listPhyto, listPhytosanitary);
