import type { TableClient, TransactionAction } from '@azure/data-tables';
import { odataEq } from './odata';

/** Azure Table Storage accepts at most 15 comparisons in one filter: the partition key plus 14 row keys. */
const ROW_KEYS_PER_QUERY = 14;

/**
 * Reads the rows with the given row keys from one partition: one query per 14 keys, `parallel` at a time. Missing
 * rows are simply absent from the result.
 */
export async function readRowsByKey(
  table: TableClient,
  partitionKey: string,
  rowKeys: string[],
  parallel = 8,
): Promise<Record<string, unknown>[]> {
  const groups: string[][] = [];
  for (let i = 0; i < rowKeys.length; i += ROW_KEYS_PER_QUERY) groups.push(rowKeys.slice(i, i + ROW_KEYS_PER_QUERY));
  const out: Record<string, unknown>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < groups.length) {
      const group = groups[next++]!;
      const filter = `${odataEq('PartitionKey', partitionKey)} and (${group.map((k) => odataEq('RowKey', k)).join(' or ')})`;
      for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } })) out.push(e);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, groups.length) }, worker));
  return out;
}

/** A transaction holds at most 100 operations and 4 MiB; the payload bound leaves room for the batch envelope. */
const MAX_OPERATIONS = 100;
const MAX_PAYLOAD_CHARS = 3_000_000;

/** Submits actions of one partition in order, in as few transactions as the Table Storage limits allow. */
export async function submitInChunks(table: TableClient, actions: TransactionAction[]): Promise<void> {
  let chunk: TransactionAction[] = [];
  let chars = 0;
  for (const action of actions) {
    const size = JSON.stringify(action[1]).length;
    if (chunk.length > 0 && (chunk.length === MAX_OPERATIONS || chars + size > MAX_PAYLOAD_CHARS)) {
      await table.submitTransaction(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(action);
    chars += size;
  }
  if (chunk.length > 0) await table.submitTransaction(chunk);
}
