import { z } from 'zod';
import { catalogProductsExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { PAGINATION_HEADERS } from '../pagination';
import { CACHE_HEADERS } from '../conditional';
import { cropProductSchema, cropProductsQuerySchema } from '../../api/catalog-schemas';
import { MAX_PAGE_SIZE } from '../../domain/pagination';
import { CATALOGUE_CACHING, NOT_MODIFIED } from './catalogue-caching';

export const catalogProducts = {
  ...CORE_ROUTES.catalogProducts,
  summary: 'The products a registration for a crop on a day would accept',
  description:
    'Products of the official register in force on the day (grace period included) with a use for the crop that ' +
    'authorises the month of the day, by name; each with the uses that would accept the registration: a dose inside ' +
    "a use's range, in its unit, on that crop and day, passes the product, crop, month and dose rules. `pest` keeps " +
    'the uses that authorise that pest, or a group it belongs to; `q` searches the product and substance names. An ' +
    `unknown crop code is 400. Pagination as the record list: page and page_size (1 to ${MAX_PAGE_SIZE}) together, ` +
    'or neither (every product). ' +
    CATALOGUE_CACHING,
  query: cropProductsQuerySchema,
  success: {
    status: 200,
    description: 'the products, by name',
    schema: z.array(cropProductSchema),
    headers: { ...CACHE_HEADERS, ...PAGINATION_HEADERS },
  },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['REQUIRED', 'INVALID_VALUE', 'INVALID_DATE', 'PAGINATION_PAIR'],
  ifNoneMatch: true,
  example: catalogProductsExample,
} satisfies Contract;
