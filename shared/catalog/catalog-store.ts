import { createHash } from 'node:crypto';
import type { TableClient, TransactionAction } from '@azure/data-tables';
import { Applicator } from './applicator';
import { Product } from './product';
import { submitInChunks } from '../store/batched-query';
import { fromDocProps, toDocProps } from '../store/doc-entity';
import { beginCatalogChange, bumpCatalogVersion } from './catalog-version';
import { TABLES, TableStore } from '../store/tables';
import { odataEq } from '../store/odata';

/**
 * Reference data in the `catalog` table, one partition per kind, so the in-memory cache refreshes each kind with a
 * single partition query. Rows carry a content hash: re-importing the same data writes nothing and reports nothing.
 */
export const CATALOG_PARTITIONS = { product: 'product', applicator: 'applicator' } as const;

export type StoredProduct = Product;
export type StoredApplicator = Applicator;

export interface UpsertReport {
  added: string[];
  changed: string[];
  unchanged: number;
}

export function contentHash(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('base64url');
}

async function readPartition<T>(table: TableClient, pk: string): Promise<Map<string, { doc: T; hash: string }>> {
  const rows = new Map<string, { doc: T; hash: string }>();
  for await (const e of table.listEntities<Record<string, unknown>>({
    queryOptions: { filter: odataEq('PartitionKey', pk) },
  })) {
    rows.set(String(e.rowKey), { doc: fromDocProps<T>(e), hash: String(e.hash) });
  }
  return rows;
}

/** Writes the documents whose content changed, in transactions within the Table Storage limits, and says what moved. */
async function upsertPartition<T>(
  table: TableClient,
  pk: string,
  docs: { key: string; doc: T }[],
): Promise<UpsertReport> {
  const existing = await readPartition<T>(table, pk);
  const report: UpsertReport = { added: [], changed: [], unchanged: 0 };
  const actions: TransactionAction[] = [];
  for (const { key, doc } of docs) {
    const hash = contentHash(doc);
    const before = existing.get(key);
    if (before?.hash === hash) {
      report.unchanged++;
      continue;
    }
    (before ? report.changed : report.added).push(key);
    actions.push(['upsert', { partitionKey: pk, rowKey: key, hash, ...toDocProps(doc) }, 'Replace']);
  }
  if (actions.length > 0) await beginCatalogChange(table);
  await submitInChunks(table, actions);
  if (actions.length > 0) await bumpCatalogVersion(table);
  return report;
}

export class CatalogStore {
  constructor(private readonly store: TableStore) {}

  async upsertProducts(products: StoredProduct[]): Promise<UpsertReport> {
    const table = await this.store.table(TABLES.catalog);
    return upsertPartition(
      table,
      CATALOG_PARTITIONS.product,
      products.map((p) => ({ key: p.code, doc: p })),
    );
  }

  async upsertApplicators(applicators: StoredApplicator[]): Promise<UpsertReport> {
    const table = await this.store.table(TABLES.catalog);
    return upsertPartition(
      table,
      CATALOG_PARTITIONS.applicator,
      applicators.map((a) => ({ key: a.ropo, doc: a })),
    );
  }

  async loadProducts(): Promise<StoredProduct[]> {
    const table = await this.store.table(TABLES.catalog);
    return [...(await readPartition<StoredProduct>(table, CATALOG_PARTITIONS.product)).values()].map((r) => r.doc);
  }

  async loadApplicators(): Promise<StoredApplicator[]> {
    const table = await this.store.table(TABLES.catalog);
    return [...(await readPartition<StoredApplicator>(table, CATALOG_PARTITIONS.applicator)).values()].map(
      (r) => r.doc,
    );
  }
}
