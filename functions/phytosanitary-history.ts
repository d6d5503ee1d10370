import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { phytoHistory } from '../shared/http/contracts/phytosanitary-history';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf } from '../shared/http/record-headers';

export const readPhytosanitaryHistory: HandleOf<typeof phytoHistory, UseCases> = async (
  { client, params, query },
  useCases,
) => ({
  status: 200,
  json: await useCases.applicationHistory(client, query.agrifarmId, recordIdOf(params.id, 'AgriPhytosanitary')),
});

export const handler = serve(phytoHistory, readPhytosanitaryHistory);
