import { z } from 'zod';
import { listFertilizationExample } from '../../api/examples';
import { fertilizationListQuerySchema, fertilizeRecordViewSchema } from '../../api/fertilization-schemas';
import { MAX_PAGE_SIZE } from '../../domain/pagination';
import { Contract } from '../contract';
import { PAGINATION_HEADERS } from '../pagination';
import { ROUTES } from '../routes';

export const listFertilization = {
  ...ROUTES.listFertilization,
  summary: 'List the fertilizations of a farm campaign',
  description:
    'Newest first day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the first day), material ' +
    `(MAT_FERTI code), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
    'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
  query: fertilizationListQuerySchema,
  success: {
    status: 200,
    description: 'the records',
    schema: z.array(fertilizeRecordViewSchema),
    headers: PAGINATION_HEADERS,
  },
  errors: ['AGRIFARM_NOT_FOUND', 'PAGINATION_PAIR', 'INVALID_DATE', 'INVALID_VALUE'],
  example: listFertilizationExample,
} satisfies Contract;
