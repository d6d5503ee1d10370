import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { readPhyto } from '../shared/http/contracts/read-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';

export const readPhytosanitary: HandleOf<typeof readPhyto, UseCases> = async ({ client, params, query }, useCases) => {
  return recordReply(
    await useCases.readApplication(client, query.agrifarmId, recordIdOf(params.id, 'AgriPhytosanitary')),
  );
};

export const handler = serve(readPhyto, readPhytosanitary);
