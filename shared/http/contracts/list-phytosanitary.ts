import { listExample } from '../../api/examples';
import { listQuerySchema, phytoRecordViewSchema } from '../../api/phyto-schemas';
import { MAX_PAGE_SIZE } from '../../domain/pagination';
import { Contract } from '../contract';
import { ROUTES } from '../routes';
import { recordListParts } from './record-list-parts';

export const listPhyto = {
  ...ROUTES.listPhytosanitary,
  ...recordListParts(phytoRecordViewSchema),
  summary: 'List the phytosanitary applications of a farm campaign',
  description:
    'Newest application first. Filters: dateFrom and dateTo (DD-MM-YYYY, inclusive, Madrid days), product. Pagination: ' +
    `page (from 1) and page_size (1 to ${MAX_PAGE_SIZE}) together, or neither (then every matching record is returned). ` +
    'The body stays an array; X-Total-Count, X-Page, X-Page-Size, X-Total-Pages and Link headers carry the paging.',
  query: listQuerySchema,
  example: listExample,
} satisfies Contract;
