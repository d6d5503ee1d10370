import { z } from 'zod';
import { listExample } from '../../api/examples';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { listQuerySchema, phytoRecordViewSchema } from '../../api/phyto-schemas';
import { PAGINATION_HEADERS } from '../pagination';
import { MAX_PAGE_SIZE } from '../../domain/pagination';

export const listPhyto = {
  ...ROUTES.listPhytosanitary,
  summary: 'List the phytosanitary applications of a farm campaign',
  description:
    'Newest application first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, Madrid days), product. Pagination: ' +
    `page (from 1) and page_size (1 to ${MAX_PAGE_SIZE}) together, or neither (then every matching record is returned). ` +
    'The body stays an array; X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers carry the paging.',
  query: listQuerySchema,
  success: {
    status: 200,
    description: 'the records',
    schema: z.array(phytoRecordViewSchema),
    headers: PAGINATION_HEADERS,
  },
  errors: ['AGRIFARM_NOT_FOUND', 'PAGINATION_PAIR', 'INVALID_DATE', 'INVALID_VALUE'],
  example: listExample,
} satisfies Contract;
