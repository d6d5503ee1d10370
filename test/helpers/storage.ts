import { odata, TableClient } from '@azure/data-tables';
import { FarmKey, holdingPartition } from '../../shared/records/record-keys';
import { TableStore } from '../../shared/store/tables';
import { storageConnection, storageSettings, StorageSettings } from '../support/stack-env';

export { storageConnection, storageSettings, StorageSettings };

/**
 * A fresh TableStore on the shared stack's Azurites (the jest global setup's), as the admin CLI and the gateway build
 * it: with every data account, so `farmTable` finds a farm's rows in the account the gateway keeps them in.
 */
export function testTables(): TableStore {
  return new TableStore(storageSettings());
}

type Table = Parameters<TableStore['table']>[0];

/** Every entity of a table client, or those `filter` (OData) selects, as plain objects. */
async function entitiesOf(table: TableClient, filter?: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const e of table.listEntities<Record<string, unknown>>(filter ? { queryOptions: { filter } } : {}))
    out.push(e);
  return out;
}

/**
 * Every entity of a table of the first account, or those `filter` (OData) selects, as plain objects (test-only:
 * request paths never scan). A farm's rows are not there but in its account: `holdingEntities`.
 */
export async function allEntities(store: TableStore, name: Table, filter?: string): Promise<Record<string, unknown>[]> {
  return entitiesOf(await store.table(name), filter);
}

/** Every entity of one partition of a table of the first account. */
export function partition(store: TableStore, name: Table, pk: string): Promise<Record<string, unknown>[]> {
  return allEntities(store, name, odata`PartitionKey eq ${pk}`);
}

/**
 * Every entity of a farm's holding partition of a record kind's table (or those `filter` selects there), read in the
 * account the farm's rows live in, found as the gateway finds it (`farmTable`, shared/store/farm-accounts.ts).
 */
export async function holdingEntities(
  store: TableStore,
  name: Table,
  farm: Pick<FarmKey, 'rea'>,
  filter?: string,
): Promise<Record<string, unknown>[]> {
  // The holding's partition is named by its REA alone.
  const pk = odata`PartitionKey eq ${holdingPartition({ ...farm, farmId: 0 })}`;
  return entitiesOf(await store.farmTable(name, farm), filter ? `${pk} and (${filter})` : pk);
}
