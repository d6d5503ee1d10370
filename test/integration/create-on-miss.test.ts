import { TableClient } from '@azure/data-tables';
import { createOnMiss, isTableNotFound } from '../../shared/store/create-on-miss';
import { TABLES } from '../../shared/store/tables';
import { suffix } from '../helpers/dataset';
import { storageConnection } from '../helpers/storage';
import { IsolatedTableStore } from './catalog-tables';

/** A client of a table that does not exist yet (real Azurite), wrapped, and how many times it was created. */
function missingTable(): { table: TableClient; raw: TableClient; creations: () => number } {
  const raw = TableClient.fromConnectionString(storageConnection(), `miss${suffix(6)}`, {
    allowInsecureConnection: true,
  });
  let creations = 0;
  const table = createOnMiss(raw, async () => {
    creations++;
    await raw.createTable();
  });
  return { table, raw, creations: () => creations };
}

const row = { partitionKey: 'p', rowKey: 'r', n: 1 };

describe('a table client that creates its table when a call finds it missing (real Azurite)', () => {
  it('stores a write made before the table exists, creating the table once', async () => {
    const { table, raw, creations } = missingTable();
    await table.upsertEntity(row);
    await table.updateEntity({ ...row, n: 2 }, 'Merge');
    expect((await raw.getEntity<{ n: number }>('p', 'r')).n).toBe(2);
    expect(creations()).toBe(1);
    await raw.deleteTable();
  });

  it('stores a transaction made before the table exists', async () => {
    const { table, raw, creations } = missingTable();
    await table.submitTransaction([
      ['create', row],
      ['upsert', { ...row, rowKey: 's' }],
    ]);
    const keys: string[] = [];
    for await (const e of raw.listEntities()) keys.push(e.rowKey!);
    expect(keys).toEqual(['r', 's']);
    expect(creations()).toBe(1);
    await raw.deleteTable();
  });

  it('lists a missing table as empty, by item and by page, and creates it', async () => {
    const { table, raw, creations } = missingTable();
    const items: unknown[] = [];
    for await (const e of table.listEntities()) items.push(e);
    expect(items).toEqual([]);
    expect(creations()).toBe(1);
    await raw.deleteTable();
    const pages: unknown[][] = [];
    for await (const page of table.listEntities().byPage()) pages.push(page);
    expect(pages.flat()).toEqual([]);
    expect(creations()).toBe(2);
    await raw.deleteTable();
  });

  it('answers a missing entity of an existing table as the SDK does, creating nothing', async () => {
    const { table, raw, creations } = missingTable();
    await raw.createTable();
    const refused = await table.getEntity('p', 'none').catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'RestError', statusCode: 404 });
    expect(isTableNotFound(refused)).toBe(false);
    await expect(table.deleteEntity('p', 'none')).rejects.toMatchObject({ statusCode: 404 });
    expect(creations()).toBe(0);
    await raw.deleteTable();
  });

  it('tells TableNotFound apart, on a plain call and on a transaction', async () => {
    const { raw } = missingTable();
    expect(isTableNotFound(await raw.getEntity('p', 'r').catch((e: unknown) => e))).toBe(true);
    expect(isTableNotFound(await raw.submitTransaction([['create', row]]).catch((e: unknown) => e))).toBe(true);
  });

  it('is how TableStore gives its tables: a fresh one is created by its first write', async () => {
    const store = new IsolatedTableStore();
    try {
      const jobs = await store.table(TABLES.jobs);
      await Promise.all([jobs.upsertEntity(row), jobs.upsertEntity({ ...row, rowKey: 's' })]);
      expect((await jobs.getEntity<{ n: number }>('p', 's')).n).toBe(1);
    } finally {
      await store.drop();
    }
  });
});
