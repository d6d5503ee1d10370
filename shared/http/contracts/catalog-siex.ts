import { z } from 'zod';
import { siexCatalogueExample } from '../../api/examples';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';
import { PAGINATION_HEADERS } from '../pagination';
import { CACHE_HEADERS } from '../conditional';
import { siexCatalogueParamsSchema, siexCatalogueQuerySchema, siexEntrySchema } from '../../api/catalog-schemas';
import { CATALOGUE_CACHING, NOT_MODIFIED } from './catalogue-caching';

export const siexCatalogue = {
  ...CORE_ROUTES.siexCatalogue,
  summary: 'A SIEX code catalogue',
  description:
    'Every code of the catalogue in code order, with its name, its hierarchy code and group where the catalogue has ' +
    'them (pests, diseases, weeds, growth regulators), and whether it is in force on the day: registrations take ' +
    'only codes in force on the application day. An unknown catalogue name is 404. Pagination as the record list. ' +
    CATALOGUE_CACHING,
  params: siexCatalogueParamsSchema,
  query: siexCatalogueQuerySchema,
  success: {
    status: 200,
    description: 'the codes',
    schema: z.array(siexEntrySchema),
    headers: { ...CACHE_HEADERS, ...PAGINATION_HEADERS },
  },
  alsoSuccess: [NOT_MODIFIED],
  errors: ['INVALID_VALUE', 'INVALID_DATE', 'PAGINATION_PAIR', 'SIEX_CATALOGUE_NOT_FOUND'],
  ifNoneMatch: true,
  example: siexCatalogueExample,
} satisfies Contract;
