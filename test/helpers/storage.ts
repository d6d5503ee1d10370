import { odata } from '@azure/data-tables';
import { TableStore } from '../../shared/store/tables';
import { storageConnection, storageSettings } from '../support/stack-env';

export { storageConnection, storageSettings };

/**
 * A fresh TableStore on the shared stack's Azurites (the jest global setup's), as the admin CLI and the gateway build
 * it: with every data account, so `farmTable` finds a farm's rows in the account the gateway keeps them in.
 */
export function testTables(): TableStore {
  return new TableStore(storageSettings());
}

type Table = Parameters<TableStore['table']>[0];

/** Every entity of a table, or those `filter` (OData) selects, as plain objects (test-only: request paths never scan). */
export async function allEntities(store: TableStore, name: Table, filter?: string): Promise<Record<string, unknown>[]> {
  const table = await store.table(name);
  const out: Record<string, unknown>[] = [];
  for await (const e of table.listEntities<Record<string, unknown>>(filter ? { queryOptions: { filter } } : {}))
    out.push(e);
  return out;
}

/** Every entity of one partition. */
export function partition(store: TableStore, name: Table, pk: string): Promise<Record<string, unknown>[]> {
  return allEntities(store, name, odata`PartitionKey eq ${pk}`);
}
