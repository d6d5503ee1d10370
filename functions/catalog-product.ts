import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { cacheableReply } from '../shared/http/conditional';
import { catalogProduct } from '../shared/http/contracts/catalog-product';
import { HandleOf } from '../shared/http/endpoint';

export const readCatalogProduct: HandleOf<typeof catalogProduct, UseCases> = async ({ params, request }, useCases) =>
  cacheableReply(request, await useCases.catalogueProduct(params.code));

export const handler = serve(catalogProduct, readCatalogProduct);
