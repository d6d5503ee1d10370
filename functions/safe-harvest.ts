import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { safeHarvestContract } from '../shared/http/contracts/safe-harvest';
import { HandleOf } from '../shared/http/endpoint';

export const safeHarvest: HandleOf<typeof safeHarvestContract, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: await useCases.safeHarvest(client, query),
});

export const handler = serve(safeHarvestContract, safeHarvest);
