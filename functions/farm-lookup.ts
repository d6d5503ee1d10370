import { UseCases } from '../shared/app/use-cases';
import { farmLookup } from '../shared/http/contracts/farm-lookup';
import { HandleOf } from '../shared/http/endpoint';
import { serve } from '../shared/app/serve';

export const lookUpFarm: HandleOf<typeof farmLookup, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  rawJson: await useCases.farmView(client, query.rea, query.year),
});

export const handler = serve(farmLookup, lookUpFarm);
