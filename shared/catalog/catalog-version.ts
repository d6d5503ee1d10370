import { randomUUID } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';

/**
 * One row in the `catalog` table that changes whenever any reference data does (products, applicators, SIEX codes),
 * so that caches revalidate with a point read instead of reloading the whole catalog.
 */
const PK = 'meta';
const RK = 'version';

export async function bumpCatalogVersion(table: TableClient): Promise<void> {
  await table.upsertEntity({ partitionKey: PK, rowKey: RK, version: randomUUID() }, 'Replace');
}

export async function readCatalogVersion(table: TableClient): Promise<string> {
  try {
    return String((await table.getEntity<{ version: string }>(PK, RK)).version);
  } catch (e) {
    if (isRestError(e, 404)) return '';
    throw e;
  }
}
