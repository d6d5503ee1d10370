import { listFertilizationExample } from '../../api/examples';
import { fertilizationListQuerySchema, fertilizeRecordViewSchema } from '../../api/fertilization-schemas';
import { MAX_PAGE_SIZE } from '../../domain/pagination';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordListParts } from './record-list-parts';

export const listFertilization = {
  ...ROUTES.listFertilization,
  ...recordListParts(fertilizeRecordViewSchema),
  summary: 'List the fertilizations of a farm campaign',
  description:
    'Newest first day first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, on the first day), material ' +
    `(MAT_FERTI code), exported, exportable, idcp. Pagination as the treatments' list: page and page_size (1 to ${MAX_PAGE_SIZE}) ` +
    'together, or neither (every matching record); X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers.',
  query: fertilizationListQuerySchema,
  example: listFertilizationExample,
} satisfies Contract;
