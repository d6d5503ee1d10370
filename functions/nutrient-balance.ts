import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { nutrientBalanceContract } from '../shared/http/contracts/nutrient-balance';
import { HandleOf } from '../shared/http/endpoint';

export const nutrientBalance: HandleOf<typeof nutrientBalanceContract, UseCases> = async (
  { client, query },
  useCases,
) => ({
  status: 200,
  json: await useCases.nutrientBalance(client, query),
});

export const handler = serve(nutrientBalanceContract, nutrientBalance);
