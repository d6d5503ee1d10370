import type { TableClient, TransactionAction } from '@azure/data-tables';
import { odata, odataEq } from './odata';

/** Azure Table Storage accepts at most 15 comparisons in one filter: the partition key plus 14 row keys. */
const ROW_KEYS_PER_QUERY = 14;

/** What a read of rows by key may leave out: `select` names the only columns to read (the keys are always read). */
export interface RowRead {
  select?: string[];
}

/** The query options of a read: its filter, and the columns it reads (the row key always among them). */
function queryOptions(filter: string, read: RowRead) {
  return { filter, ...(read.select ? { select: ['RowKey', ...read.select] } : {}) };
}

/**
 * A row read with `select` carries a column it lacks as null (Table Storage answers every column asked for): dropped,
 * so that it reads as the same row read whole.
 */
function withoutNulls(row: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(row)) if (v === null) delete row[k];
  return row;
}

/**
 * Reads the rows with the given row keys from one partition: one query per 14 keys, `parallel` at a time. Missing
 * rows are simply absent from the result.
 */
export async function readRowsByKey(
  table: TableClient,
  partitionKey: string,
  rowKeys: string[],
  parallel = 8,
  read: RowRead = {},
): Promise<Record<string, unknown>[]> {
  const groups: string[][] = [];
  for (let i = 0; i < rowKeys.length; i += ROW_KEYS_PER_QUERY) groups.push(rowKeys.slice(i, i + ROW_KEYS_PER_QUERY));
  const out: Record<string, unknown>[] = [];
  await inParallel(groups, parallel, async (group) => {
    const filter = `${odataEq('PartitionKey', partitionKey)} and (${group.map((k) => odataEq('RowKey', k)).join(' or ')})`;
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: queryOptions(filter, read) }))
      out.push(withoutNulls(e));
  });
  return out;
}

/** Rows of one range query page, at most: Table Storage's own largest page. */
const MAX_PAGE = 1000;

/**
 * Reads the rows with the given row keys from one partition as `readRowsByKey` does, for many keys that are mostly
 * neighbours (the pointers of an export's records, their record rows): one range query over the keys' span, page by
 * page, keeping the rows asked for. Keys joined by `or` are no range: Table Storage scans the partition for each such
 * query of 14 keys (Azure's table design guide, "Design for querying"), and Azurite its whole table, so 1,000 records
 * cost 72 scans where one range costs one. Should the span hold more rows not asked for than rows asked for (the keys
 * are far apart after all), the range stops there and the keys beyond it are read by key: at most about twice the
 * rows are read, whatever the keys.
 */
export async function readRowsNearby(
  table: TableClient,
  partitionKey: string,
  rowKeys: string[],
  parallel = 8,
  read: RowRead = {},
): Promise<Record<string, unknown>[]> {
  const wanted = [...new Set(rowKeys)].sort();
  if (wanted.length <= ROW_KEYS_PER_QUERY) return readRowsByKey(table, partitionKey, wanted, parallel, read);
  const asked = new Set(wanted);
  const filter = odata`PartitionKey eq ${partitionKey} and RowKey ge ${wanted[0]} and RowKey le ${wanted.at(-1)}`;
  const out: Record<string, unknown>[] = [];
  let others = 0;
  let last = '';
  const pages = table.listEntities<Record<string, unknown>>({ queryOptions: queryOptions(filter, read) });
  for await (const page of pages.byPage({ maxPageSize: Math.min(MAX_PAGE, wanted.length) })) {
    for (const e of page) {
      if (asked.has(String(e.rowKey))) out.push(withoutNulls(e));
      else others++;
      last = String(e.rowKey);
    }
    if (others > wanted.length) {
      const beyond = wanted.filter((k) => k > last);
      return [...out, ...(await readRowsByKey(table, partitionKey, beyond, parallel, read))];
    }
  }
  return out;
}

/** A transaction holds at most 100 operations and 4 MiB; the payload bound leaves room for the batch envelope. */
export const MAX_TRANSACTION_OPERATIONS = 100;
const MAX_PAYLOAD_CHARS = 3_000_000;

/**
 * Transactions of one partition in flight at once, where their order does not matter: the client's serialising and the
 * service's work overlap (an export's 3,000 writes took 2.9 s one transaction at a time on Azurite: issue 25), while
 * staying near the 2,000 entities per second Azure serves one partition (its scalability targets; beyond them it
 * answers 503 ServerBusy, which the storage pipeline retries).
 */
export const TRANSACTIONS_IN_PARALLEL = 3;

/**
 * Submits actions of one partition in as few transactions as the Table Storage limits allow. Each unit (one action, or
 * the rows of one change, such as a record and its pointer) lands whole, in one transaction. One transaction at a time
 * keeps the units' order; `parallel` above one lands them in any order, for units that do not depend on each other. A
 * failure starts no further transaction, waits for those in flight, and is passed on.
 */
export async function submitInChunks(
  table: TableClient,
  units: readonly (TransactionAction | readonly TransactionAction[])[],
  parallel = 1,
): Promise<void> {
  const chunks: TransactionAction[][] = [];
  let chunk: TransactionAction[] = [];
  let chars = 0;
  for (const unit of units) {
    const actions = isAction(unit) ? [unit] : unit;
    const size = actions.reduce((n, a) => n + JSON.stringify(a[1]).length, 0);
    if (
      chunk.length > 0 &&
      (chunk.length + actions.length > MAX_TRANSACTION_OPERATIONS || chars + size > MAX_PAYLOAD_CHARS)
    ) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(...actions);
    chars += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  await inParallel(chunks, parallel, async (c) => void (await table.submitTransaction(c)));
}

/** An action is a tuple whose first element names the operation; a unit of several is an array of such tuples. */
function isAction(unit: TransactionAction | readonly TransactionAction[]): unit is TransactionAction {
  return typeof unit[0] === 'string';
}

/**
 * Runs `work` on every item, at most `parallel` at a time, in the items' order of starting. Once one fails, no further
 * item starts; the failure is passed on when those running have ended, so nothing writes after the caller hears of it.
 */
export async function inParallel<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        await work(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  if (failure) throw failure.error;
}
