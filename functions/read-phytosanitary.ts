import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { readPhyto } from '../shared/http/contracts/read-phytosanitary';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf, withEtag } from '../shared/http/record-headers';

export const readPhytosanitary: HandleOf<typeof readPhyto, UseCases> = async ({ client, params, query }, useCases) => {
  const result = await useCases.readApplication(client, query.agrifarmId, recordIdOf(params.id));
  return { status: result.status, rawJson: result.body, headers: withEtag(result.etag) };
};

export const handler = serve(readPhyto, readPhytosanitary);
