import { TableClient } from '@azure/data-tables';

/** Azure Table Storage accepts at most 15 comparisons in one filter: the partition key plus 14 row keys. */
const ROW_KEYS_PER_QUERY = 14;

const odata = (s: string) => s.replace(/'/g, "''");

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
      const group = groups[next++];
      const filter = `PartitionKey eq '${odata(partitionKey)}' and (${group.map((k) => `RowKey eq '${odata(k)}'`).join(' or ')})`;
      for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } })) out.push(e);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, groups.length) }, worker));
  return out;
}

/** Submits actions of one partition in transactions of at most 100 (the Table Storage limit), in order. */
export async function submitInChunks<A>(table: TableClient, actions: A[], size = 100): Promise<void> {
  for (let i = 0; i < actions.length; i += size) {
    await table.submitTransaction(actions.slice(i, i + size) as Parameters<TableClient['submitTransaction']>[0]);
  }
}
