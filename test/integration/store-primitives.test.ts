import { TableClient, TransactionAction } from '@azure/data-tables';
import { QueueClient } from '@azure/storage-queue';
import { readRowsNearby, submitInChunks } from '../../shared/store/batched-query';
import { readChunkedDoc, writeChunkedDoc } from '../../shared/store/chunked-doc';
import { Counters, IdBlocks } from '../../shared/store/counters';
import { MAX_DOC_CHARS } from '../../shared/store/doc-entity';
import { TABLES } from '../../shared/store/tables';
import { QueueSender } from '../../shared/store/queues';
import { storageConnection } from '../support/stack-env';
import { suffix } from '../helpers/dataset';
import { partition, testTables } from '../helpers/storage';

describe('Counters (real Azurite, ETag concurrency)', () => {
  it('starts at 1 and hands out consecutive blocks', async () => {
    const counters = new Counters(testTables());
    const name = `t-seq-${suffix()}`;
    expect(await counters.reserve(name, 1)).toBe(1);
    expect(await counters.reserve(name, 10)).toBe(2);
    expect(await counters.reserve(name, 1)).toBe(12);
  });

  it('never hands out the same id to 20 concurrent reservations, from separate clients', async () => {
    const name = `t-race-${suffix()}`;
    // separate TableStores: like separate processes, nothing shared in memory
    const firsts = await Promise.all(Array.from({ length: 20 }, () => new Counters(testTables()).reserve(name, 5)));
    const ids = firsts.flatMap((first) => [0, 1, 2, 3, 4].map((i) => first + i));
    expect(new Set(ids).size).toBe(100);
    // no gaps either when nothing failed: the blocks tile 1..100
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('never repeats an id across IdBlocks of two "processes" taking concurrently', async () => {
    const name = `t-blocks-${suffix()}`;
    const a = new IdBlocks(new Counters(testTables()), name, 7);
    const b = new IdBlocks(new Counters(testTables()), name, 7);
    const taken = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take()));
    expect(new Set(taken).size).toBe(60);
    expect(Math.min(...taken)).toBeGreaterThanOrEqual(1);
  });
});

describe('chunked documents (larger than one entity)', () => {
  async function table(): Promise<TableClient> {
    return testTables().table(TABLES.farms);
  }

  it('round-trips a document of several entities in one partition, extra properties on the first row', async () => {
    const t = await table();
    const pk = `t-doc~${suffix()}`;
    // ~2.5 entities of astral characters (surrogate pairs) shifted by one, so that every property boundary (30,000
    // characters) and entity boundary falls between the two halves of a pair; plus accents (2 UTF-8 bytes).
    const text = `ñ${'🍇'.repeat(Math.ceil(MAX_DOC_CHARS * 1.25))}Páramo`;
    expect(text.charCodeAt(29_999)).toBeGreaterThanOrEqual(0xd800);
    expect(text.charCodeAt(MAX_DOC_CHARS - 1)).toBeLessThan(0xdc00);
    expect(text.charCodeAt(MAX_DOC_CHARS - 1)).toBeGreaterThanOrEqual(0xd800);
    await writeChunkedDoc(t, pk, text, { farmId: 42, hash: 'h1' }, 0);
    const rows = await partition(testTables(), TABLES.farms, pk);
    expect(rows).toHaveLength(3);
    const doc = await readChunkedDoc(t, pk);
    expect(doc!.rows).toBe(3);
    expect(doc!.text.length).toBe(text.length);
    expect(doc!.text === text).toBe(true);
    expect(doc!.first).toMatchObject({ farmId: 42, hash: 'h1' });
  });

  it('round-trips a JSON document whose characters straddle every chunk boundary', async () => {
    const t = await table();
    const pk = `t-json~${suffix()}`;
    const doc = {
      items: Array.from({ length: 40_000 }, (_, i) => ({ i, name: `n${i}`, emoji: i % 7 === 0 ? '🌿' : 'ñ' })),
    };
    const text = JSON.stringify(doc);
    expect(text.length).toBeGreaterThan(MAX_DOC_CHARS);
    await writeChunkedDoc(t, pk, text, {}, 0);
    expect(JSON.parse((await readChunkedDoc(t, pk))!.text)).toEqual(doc);
  });

  it('removes the rows a shorter new version no longer needs', async () => {
    const t = await table();
    const pk = `t-shrink~${suffix()}`;
    await writeChunkedDoc(t, pk, 'x'.repeat(MAX_DOC_CHARS * 2 + 1), { v: 1 }, 0);
    expect((await readChunkedDoc(t, pk))!.rows).toBe(3);
    await writeChunkedDoc(t, pk, 'short', { v: 2 }, 3);
    const rows = await partition(testTables(), TABLES.farms, pk);
    expect(rows.map((r) => r.rowKey)).toEqual(['c000']);
    expect(await readChunkedDoc(t, pk)).toMatchObject({ text: 'short', rows: 1, first: { v: 2 } });
  });

  it('stores an empty document as one row, and reads an absent one as null', async () => {
    const t = await table();
    const pk = `t-empty~${suffix()}`;
    expect(await readChunkedDoc(t, pk)).toBeNull();
    await writeChunkedDoc(t, pk, '', {}, 0);
    expect(await readChunkedDoc(t, pk)).toMatchObject({ text: '', rows: 1 });
  });
});

describe('reading many rows by key (readRowsNearby)', () => {
  const key = (i: number) => `k~${String(i).padStart(4, '0')}`;

  /** A partition of 200 rows `k~0000`..`k~0199`, every third without `extra`, and the queries made on it. */
  async function rows(): Promise<{ table: TableClient; pk: string; filters: string[] }> {
    const real = await testTables().table(TABLES.farms);
    const pk = `t-nearby~${suffix()}`;
    const actions = Array.from({ length: 200 }, (_, i): TransactionAction => [
      'create',
      { partitionKey: pk, rowKey: key(i), n: i, big: 'x'.repeat(100), ...(i % 3 ? { extra: `e${i}` } : {}) },
    ]);
    for (let i = 0; i < actions.length; i += 100) await real.submitTransaction(actions.slice(i, i + 100));
    const filters: string[] = [];
    const table = new Proxy(real, {
      get: (t, prop) =>
        prop === 'listEntities'
          ? (options: Parameters<TableClient['listEntities']>[0]) => {
              filters.push(String(options?.queryOptions?.filter));
              return t.listEntities(options);
            }
          : (Reflect.get(t, prop) as unknown),
    });
    return { table, pk, filters };
  }

  it('reads neighbouring keys with one range query, only the rows asked for, with the columns asked for', async () => {
    const { table, pk, filters } = await rows();
    // 40..139 but every tenth, and one key no row has: the range holds 70 rows not asked for, fewer than asked.
    const present = Array.from({ length: 100 }, (_, i) => 40 + i).filter((i) => i % 10 !== 0);
    const asked = [...present.map(key), key(500)];
    const got = await readRowsNearby(table, pk, asked, 8, { select: ['n', 'extra'] });
    expect(filters).toHaveLength(1);
    expect(filters[0]).toContain('RowKey ge');
    expect(got.map((r) => r.rowKey).sort()).toEqual(present.map(key));
    for (const r of got) {
      expect(r.n).toBe(Number(String(r.rowKey).slice(2)));
      expect(r.big).toBeUndefined();
      // A column the row does not have reads as absent, as when the row is read whole.
      expect('extra' in r).toBe(Number(r.n) % 3 !== 0);
      expect(String(r.etag)).not.toBe('');
    }
  });

  it('keys far apart: the range stops once it read more rows not asked for than asked for, the rest read by key', async () => {
    const { table, pk, filters } = await rows();
    const asked = [
      ...Array.from({ length: 20 }, (_, i) => key(i)),
      ...Array.from({ length: 10 }, (_, i) => key(190 + i)),
    ];
    const got = await readRowsNearby(table, pk, asked);
    expect(got.map((r) => r.rowKey).sort()).toEqual(asked);
    // Pages of 30 rows: the second ends 40 rows not asked for in, so the last ten keys are read by key, in one query.
    expect(filters).toHaveLength(2);
    expect(filters[0]).toContain('RowKey ge');
    expect(filters[1]).not.toContain('RowKey ge');
    for (const k of asked.slice(20)) expect(filters[1]).toContain(`'${k}'`);
  });

  it('few keys are read by key', async () => {
    const { table, pk, filters } = await rows();
    const got = await readRowsNearby(table, pk, [key(3), key(150), key(999)]);
    expect(got.map((r) => r.rowKey).sort()).toEqual([key(3), key(150)]);
    expect(filters).toHaveLength(1);
    expect(filters[0]).not.toContain('RowKey ge');
  });
});

describe('writing many rows in transactions (submitInChunks)', () => {
  it('never splits a unit between two transactions: a unit that fails takes none of its rows with the one before', async () => {
    const table = await testTables().table(TABLES.farms);
    const pk = `t-units~${suffix()}`;
    // 34 units of 3 rows: 33 fill a first transaction (99 operations), the 34th goes alone and fails on its last row.
    await table.createEntity({ partitionKey: pk, rowKey: 'c~33' });
    const units = Array.from({ length: 34 }, (_, i) =>
      ['a', 'b', 'c'].map((k): TransactionAction => ['create', { partitionKey: pk, rowKey: `${k}~${i}` }]),
    );
    await expect(submitInChunks(table, units)).rejects.toThrow();
    const keys = new Set<string>();
    for await (const e of table.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk}'` } }))
      keys.add(String(e.rowKey));
    expect(keys.has('c~32')).toBe(true);
    expect(keys.has('a~33')).toBe(false);
    expect(keys.size).toBe(100);
  });

  it('in parallel, lands every unit, whatever the order', async () => {
    const table = await testTables().table(TABLES.farms);
    const pk = `t-parallel~${suffix()}`;
    const actions = Array.from({ length: 450 }, (_, i): TransactionAction => [
      'create',
      { partitionKey: pk, rowKey: `r~${i}` },
    ]);
    await submitInChunks(table, actions, 3);
    let n = 0;
    for await (const _ of table.listEntities({ queryOptions: { filter: `PartitionKey eq '${pk}'` } })) n++;
    expect(n).toBe(450);
  });
});

describe('a queue as GET /v1/health reads it (QueueSender.waiting)', () => {
  const settings = { AzureWebJobsStorage: storageConnection(), AzureWebJobsStorage__accountName: '' };

  it('counts what waits, and a queue no message ever reached waits for none, as a poison queue is before its first', async () => {
    const name = `health-${suffix().toLowerCase()}`;
    const queue = new QueueSender(settings, name);
    expect(await queue.waiting()).toBe(0);
    await queue.send({ n: 1 });
    await queue.send({ n: 2 });
    expect(await queue.waiting()).toBe(2);
    await new QueueClient(storageConnection(), name).delete();
  });
});
