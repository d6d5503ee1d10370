import { z } from 'zod';
import { listQuerySchema, PhytoRecordView } from '../api/phyto-schemas';
import { parseDate } from '../domain/dates';
import { violation } from '../domain/errors';
import { pageOf, PageInfo, pageRequest, PageRequest, queryError } from '../domain/pagination';
import { FarmIndex } from '../farms/farm-index';
import { PhytoStore } from './phyto-store';
import { recordAnswer } from './record-answer';
import { RecordKeyIndex } from '../records/record-key-index';

export type ListFilters = Omit<z.infer<typeof listQuerySchema>, 'agrifarmId'>;

export interface ListPage {
  records: PhytoRecordView[];
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
  q: ListFilters,
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

/** Whether a record passes the filters on what only the record itself says (its export state, its locations). */
function matchesRecordFilters(
  record: PhytoRecordView,
  q: Pick<ListFilters, 'exported' | 'exportable' | 'idcp'>,
): boolean {
  return (
    (q.exported === undefined || record.exported === String(q.exported)) &&
    (q.exportable === undefined || record.exportable === (q.exportable === 1)) &&
    (q.idcp === undefined || record.idcp.includes(String(Number(q.idcp))))
  );
}

/**
 * One page of a farm's records, newest application first. Counting needs every matching key: they come from the key
 * index (settled keys from memory, recent ones from one query), then only the page's records are read in full. A
 * filter on what the keys do not hold (export state, exportability, location: they change without the keys changing)
 * reads the period's records in full instead, in one partition query, and counts and pages them here.
 */
export async function listRecords(
  store: Pick<PhytoStore, 'readRange' | 'readRecordsIn'>,
  index: Pick<RecordKeyIndex, 'keys'>,
  farm: FarmIndex,
  raw: Record<string, string>,
  q: ListFilters,
): Promise<ListPage> {
  const { fromMs, toMs, page } = checkListQuery(raw, q);
  if (q.exported !== undefined || q.exportable !== undefined || q.idcp !== undefined) {
    const all = (await store.readRecordsIn(farm.meta, fromMs, toMs, q.product))
      .map((r) => recordAnswer(r.record, farm, r.blockIds))
      .filter((r) => matchesRecordFilters(r, q));
    const { items, total, page: answered } = pageOf(all, page);
    return { records: items, total, ...(answered ? { page: answered } : {}) };
  }
  const keys = await index.keys(farm.meta, fromMs, toMs, q.product);
  const { items: slice, total, page: answered } = pageOf(keys, page);
  const records = slice.length > 0 ? await store.readRange(farm.meta, slice[0]!, slice.at(-1)!, q.product) : [];
  return {
    records: records.map((r) => recordAnswer(r.record, farm, r.blockIds)),
    total,
    ...(answered ? { page: answered } : {}),
  };
}
