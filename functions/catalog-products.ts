import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { cacheableReply } from '../shared/http/conditional';
import { catalogProducts } from '../shared/http/contracts/catalog-products';
import { HandleOf } from '../shared/http/endpoint';

export const listCatalogProducts: HandleOf<typeof catalogProducts, UseCases> = async ({ query, request }, useCases) =>
  cacheableReply(request, await useCases.cropProducts(Object.fromEntries(request.query.entries()), query));

export const handler = serve(catalogProducts, listCatalogProducts);
