import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { listFertilization } from '../shared/http/contracts/list-fertilization';
import { HandleOf } from '../shared/http/endpoint';
import { pageReply } from '../shared/http/pagination';

export const listFertilizations: HandleOf<typeof listFertilization, UseCases> = async (
  { client, query, request },
  useCases,
) => {
  const page = await useCases.listFertilizations(
    client,
    query.agrifarmId,
    Object.fromEntries(request.query.entries()),
    query,
  );
  return pageReply(request.url, page);
};

export const handler = serve(listFertilization, listFertilizations);
