import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { cacheableReply } from '../shared/http/conditional';
import { applicatorCard } from '../shared/http/contracts/catalog-applicator';
import { HandleOf } from '../shared/http/endpoint';

export const checkApplicatorCard: HandleOf<typeof applicatorCard, UseCases> = async ({ query, request }, useCases) =>
  cacheableReply(request, await useCases.applicatorCard(query.ropo, query.nif));

export const handler = serve(applicatorCard, checkApplicatorCard);
