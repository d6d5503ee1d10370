import { UseCases } from '../shared/app/use-cases';
import { listIdcp } from '../shared/http/contracts/list-idcp';
import { HandleOf } from '../shared/http/endpoint';
import { serve } from '../shared/app/serve';

export const listCropLocations: HandleOf<typeof listIdcp, UseCases> = async ({ client, query, body }, useCases) => ({
  status: 200,
  json: await useCases.cropLocations(client, query.agrifarmId, body),
});

export const handler = serve(listIdcp, listCropLocations);
