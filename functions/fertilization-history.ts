import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { fertilizationHistory } from '../shared/http/contracts/fertilization-history';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf } from '../shared/http/record-headers';

export const readFertilizationHistory: HandleOf<typeof fertilizationHistory, UseCases> = async (
  { client, params, query },
  useCases,
) => ({
  status: 200,
  json: await useCases.fertilizationHistory(client, query.agrifarmId, recordIdOf(params.id, 'AgriFertilize')),
});

export const handler = serve(fertilizationHistory, readFertilizationHistory);
