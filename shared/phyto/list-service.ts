import { z } from 'zod';
import { listQuerySchema, PhytoRecord } from '../api/phyto-schemas';
import { parseDate } from '../domain/dates';
import { DomainError, Violation, violation } from '../domain/errors';
import { FarmKey } from './phyto-keys';
import { PhytoStore } from './phyto-store';
import { RecordKeyIndex } from './record-key-index';

export type ListFilters = Omit<z.infer<typeof listQuerySchema>, 'agrifarmId'>;

export interface ListPage {
  records: PhytoRecord[];
  total: number;
  /** Present when the client paginated. */
  page?: { number: number; size: number; pages: number };
}

const PAIR_MESSAGE = 'page and page_size must be provided together';

/**
 * Query-parameter rules of the list that a schema cannot express: the pagination pair (a misspelt `page-size` counts
 * as missing, with the spec's message), real dates and their order. Values (page numbers, sizes) are the contract's.
 * Every problem is reported together.
 */
export function checkListQuery(
  raw: Record<string, string>,
  q: ListFilters,
): { fromMs?: number; toMs?: number; page?: { number: number; size: number } } {
  const problems: Violation[] = [];
  const misspelt = Object.keys(raw).filter((k) => k !== 'page_size' && /^page[-_ ]?size$/i.test(k));
  if ((q.page === undefined) !== (q.page_size === undefined) || misspelt.length > 0) {
    problems.push(
      violation(
        'PAGINATION_PAIR',
        misspelt.length > 0 ? `query.${misspelt[0]}` : q.page === undefined ? 'query.page' : 'query.page_size',
        PAIR_MESSAGE,
      ),
    );
  }
  const page = q.page !== undefined && q.page_size !== undefined ? { number: q.page, size: q.page_size } : undefined;
  const from = q.dateFrom === undefined ? undefined : parseDate(q.dateFrom);
  const to = q.dateTo === undefined ? undefined : parseDate(q.dateTo);
  if (from === null) problems.push(violation('INVALID_DATE', 'query.dateFrom', 'expected DD-MM-YYYY'));
  if (to === null) problems.push(violation('INVALID_DATE', 'query.dateTo', 'expected DD-MM-YYYY'));
  if (from && to && from > to) problems.push(violation('INVALID_VALUE', 'query.dateFrom', 'dateFrom is after dateTo'));
  if (problems.length > 0) {
    const pairOnly = problems.every((p) => p.code === 'PAGINATION_PAIR');
    throw new DomainError(pairOnly ? PAIR_MESSAGE : 'The query parameters are not valid.', problems);
  }
  return {
    fromMs: from ? from.startOf('day').toMillis() : undefined,
    toMs: to ? to.endOf('day').toMillis() : undefined,
    page,
  };
}

/**
 * One page of a farm's records, newest application first. Counting needs every matching key: they come from the key
 * index (settled keys from memory, recent ones from one query), then only the page's records are read in full.
 */
export async function listRecords(
  store: Pick<PhytoStore, 'readRange'>,
  index: Pick<RecordKeyIndex, 'keys'>,
  farm: FarmKey,
  raw: Record<string, string>,
  q: ListFilters,
): Promise<ListPage> {
  const { fromMs, toMs, page } = checkListQuery(raw, q);
  const keys = await index.keys(farm, fromMs, toMs, q.product);
  const slice = page ? keys.slice((page.number - 1) * page.size, page.number * page.size) : keys;
  const records = slice.length > 0 ? await store.readRange(farm, slice[0]!, slice.at(-1)!, q.product) : [];
  return {
    records,
    total: keys.length,
    ...(page ? { page: { number: page.number, size: page.size, pages: Math.ceil(keys.length / page.size) } } : {}),
  };
}
