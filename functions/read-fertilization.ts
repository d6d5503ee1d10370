import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { readFertilization } from '../shared/http/contracts/read-fertilization';
import { HandleOf } from '../shared/http/endpoint';
import { recordIdOf } from '../shared/http/record-headers';
import { recordReply } from '../shared/http/record-reply';

export const readFertilizationRecord: HandleOf<typeof readFertilization, UseCases> = async (
  { client, params, query },
  useCases,
) => recordReply(await useCases.readFertilization(client, query.agrifarmId, recordIdOf(params.id, 'AgriFertilize')));

export const handler = serve(readFertilization, readFertilizationRecord);
