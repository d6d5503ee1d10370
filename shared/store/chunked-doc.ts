import type { TableClient, TransactionAction } from '@azure/data-tables';
import { chunkText, fromDocText, MAX_DOC_CHARS } from './doc-entity';
import { odataEq } from './odata';

/**
 * A text document larger than one entity, stored as rows `c000`, `c001`, ... of one partition, so it is written in
 * one transaction and read back with one partition query. Extra properties ride on the first row.
 */
export interface ChunkedDoc {
  text: string;
  first: Record<string, unknown>;
  rows: number;
}

function rowKey(i: number): string {
  return `c${String(i).padStart(3, '0')}`;
}

export async function readChunkedDoc(table: TableClient, pk: string): Promise<ChunkedDoc | null> {
  const rows: Record<string, unknown>[] = [];
  for await (const e of table.listEntities<Record<string, unknown>>({
    queryOptions: { filter: odataEq('PartitionKey', pk) },
  })) {
    rows.push(e);
  }
  rows.sort((a, b) => String(a.rowKey).localeCompare(String(b.rowKey)));
  const [first] = rows;
  if (!first) return null;
  return { text: rows.map((r) => fromDocText(r)).join(''), first, rows: rows.length };
}

/** Replaces the document; rows left over from a longer previous version are deleted in the same transaction. */
export async function writeChunkedDoc(
  table: TableClient,
  pk: string,
  text: string,
  extra: Record<string, string | number | boolean>,
  previousRows: number,
): Promise<void> {
  const count = Math.max(1, Math.ceil(text.length / MAX_DOC_CHARS));
  if (count > 99) throw new Error(`document of ${text.length} characters is too large for one partition transaction`);
  const actions: TransactionAction[] = [];
  for (let i = 0; i < count; i++) {
    const part = chunkText(text.slice(i * MAX_DOC_CHARS, (i + 1) * MAX_DOC_CHARS));
    actions.push(['upsert', { partitionKey: pk, rowKey: rowKey(i), ...(i === 0 ? extra : {}), ...part }, 'Replace']);
  }
  for (let i = count; i < previousRows; i++) actions.push(['delete', { partitionKey: pk, rowKey: rowKey(i) }]);
  await table.submitTransaction(actions);
}
