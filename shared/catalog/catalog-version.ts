import { randomUUID } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';

/**
 * Version rows in the `catalog` table: each changes whenever the data it stands for does, so that caches revalidate
 * with a point read instead of reloading. `version` stands for the reference data (products, applicators, SIEX codes);
 * `directory` for who may call and what they see (clients and farms).
 */
const PK = 'meta';
const CHANGING = 'changing~';
type Row = 'version' | 'directory';

async function bump(table: TableClient, row: Row): Promise<void> {
  await table.upsertEntity({ partitionKey: PK, rowKey: row, version: randomUUID() }, 'Replace');
}

async function read(table: TableClient, row: Row): Promise<string> {
  try {
    return String((await table.getEntity<{ version: string }>(PK, row)).version);
  } catch (e) {
    if (isRestError(e, 404)) return '';
    throw e;
  }
}

export const bumpCatalogVersion = (table: TableClient) => bump(table, 'version');

/**
 * Marks the reference data as being changed, before an import writes it: a cache loading meanwhile cannot tell which
 * rows it read are new, so it names what it loaded by no version (shared/cache/versioned-value.ts). The import's
 * bumpCatalogVersion afterwards marks it at rest again.
 */
export async function beginCatalogChange(table: TableClient): Promise<void> {
  await table.upsertEntity({ partitionKey: PK, rowKey: 'version', version: `${CHANGING}${randomUUID()}` }, 'Replace');
}

/** Whether a catalogue version names reference data at rest (no import writing it). */
export const catalogAtRest = (version: string) => !version.startsWith(CHANGING);
export const readCatalogVersion = (table: TableClient) => read(table, 'version');
export const bumpDirectoryVersion = (table: TableClient) => bump(table, 'directory');
export const readDirectoryVersion = (table: TableClient) => read(table, 'directory');
