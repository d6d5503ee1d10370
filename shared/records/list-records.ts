import { parseDate } from '../domain/dates';
import { violation } from '../domain/errors';
import { pageOf, PageInfo, pageRequest, PageRequest, queryError } from '../domain/pagination';
import { FarmIndex } from '../farms/farm-index';
import { RecordKeyIndex } from './record-key-index';
import { RecordKind } from './record-kind';
import { RecordView } from './record-rows';
import { RecordStore, StoredRecord } from './record-store';

/** The list's query, as every kind's contract takes it (days DD-MM-YYYY Madrid, inclusive; the pagination pair). */
export interface ListQuery {
  dateFrom?: string;
  dateTo?: string;
  page?: number;
  page_size?: number;
}

/** What a kind's list filters on besides the period: the value its rows keep (`listValue`), and its answers. */
export interface ListFilter<Answer> {
  /** Only records whose `listValue` is this (for instance, a product code). */
  value?: string;
  /**
   * A filter on what only the answer says (export state, exportability, locations: they change without the keys
   * changing), absent when there is none: the period's records are then read in full and filtered here. A method, so
   * that a kind's filter on its own answers stands for any kind's in the registry.
   */
  answers?(answer: Answer): boolean;
}

export interface ListPage<Answer> {
  records: Answer[];
  total: number;
  /** Present when the client paginated. */
  page?: PageInfo;
}

/**
 * Query-parameter rules of the list that a schema cannot express: the pagination pair (shared/domain/pagination.ts),
 * real dates and their order. Values (page numbers, sizes) are the contract's. Every problem is reported together.
 */
export function checkListQuery(
  raw: Record<string, string>,
  q: ListQuery,
): { fromMs?: number; toMs?: number; page?: PageRequest } {
  const { page, violations: problems } = pageRequest(raw, q);
  const from = q.dateFrom === undefined ? undefined : parseDate(q.dateFrom);
  const to = q.dateTo === undefined ? undefined : parseDate(q.dateTo);
  if (from === null) problems.push(violation('INVALID_DATE', 'query.dateFrom', 'expected DD-MM-YYYY'));
  if (to === null) problems.push(violation('INVALID_DATE', 'query.dateTo', 'expected DD-MM-YYYY'));
  if (from && to && from > to) problems.push(violation('INVALID_VALUE', 'query.dateFrom', 'dateFrom is after dateTo'));
  if (problems.length > 0) throw queryError(problems);
  return {
    fromMs: from ? from.startOf('day').toMillis() : undefined,
    toMs: to ? to.endOf('day').toMillis() : undefined,
    page,
  };
}

/**
 * One page of a farm's records of a kind, newest application first, as the kind answers them. Counting needs every
 * matching key: they come from the key index (settled keys from memory, recent ones from one query), then only the
 * page's records are read in full. A filter on what the keys do not hold reads the period's records in full instead,
 * in one partition query, and counts and pages them here.
 */
export async function listRecords<Rec extends RecordView, Answer>(
  parts: {
    kind: Pick<RecordKind<unknown, Rec, unknown, Answer>, 'answer'>;
    store: Pick<RecordStore<unknown, Rec>, 'readRange' | 'readRecordsIn'>;
    index: Pick<RecordKeyIndex, 'keys'>;
  },
  farm: FarmIndex,
  raw: Record<string, string>,
  q: ListQuery,
  filter: ListFilter<Answer>,
): Promise<ListPage<Answer>> {
  const { kind, store, index } = parts;
  const answer = (r: StoredRecord<Rec>) => kind.answer(r.record, farm, r.blockIds);
  const { fromMs, toMs, page } = checkListQuery(raw, q);
  if (filter.answers) {
    const all = (await store.readRecordsIn(farm.meta, fromMs, toMs, filter.value))
      .map(answer)
      .filter((a) => filter.answers!(a));
    const { items, total, page: answered } = pageOf(all, page);
    return { records: items, total, ...(answered ? { page: answered } : {}) };
  }
  const keys = await index.keys(farm.meta, fromMs, toMs, filter.value);
  const { items: slice, total, page: answered } = pageOf(keys, page);
  const records = slice.length > 0 ? await store.readRange(farm.meta, slice[0]!, slice.at(-1)!, filter.value) : [];
  return { records: records.map(answer), total, ...(answered ? { page: answered } : {}) };
}
