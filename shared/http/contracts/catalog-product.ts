import { z } from 'zod';
import { catalogProductExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { CACHE_HEADERS } from '../conditional';
import { catalogueProductSchema, productParamsSchema } from '../../api/catalog-schemas';
import { CATALOGUE_CACHING, NOT_MODIFIED } from './catalogue-caching';

export const catalogProduct = {
  ...CORE_ROUTES.catalogProduct,
  summary: 'One product of the official register, with every use',
  description:
    'Its register dates, whether a registration may use it today (and why not), the card level it requires, and ' +
    'every authorised use on every crop. The code as a registration gives it (`ES-11179`; `11179` and `ES11179` ' +
    'work too). An unknown code is 404. ' +
    CATALOGUE_CACHING,
  params: productParamsSchema,
  query: z.object({}),
  success: { status: 200, description: 'the product', schema: catalogueProductSchema, headers: CACHE_HEADERS },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['INVALID_VALUE', 'PRODUCT_CODE_NOT_FOUND'],
  ifNoneMatch: true,
  example: catalogProductExample,
} satisfies Contract;
