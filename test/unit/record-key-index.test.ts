import { FarmKey, recordRowKey } from '../../shared/records/record-keys';
import { KeyScan } from '../../shared/records/record-store';
import { RecordKeyIndex } from '../../shared/records/record-key-index';

const DAY = 24 * 3600_000;
/** Farm campaigns by id, as the index is asked for them. */
const farm = (farmId: number): FarmKey => ({ farmId, rea: `REA${farmId}` });
const T0 = Date.UTC(2026, 10, 22, 12);
/** The window edge at T0: 7 days of back-dating and the 2-day margin. */
const EDGE = T0 - 9 * DAY;

/**
 * A farm's records in memory, scanned as the store scans them: by application time, newest first, with the farm's
 * list token whenever a scan reaches the present (the token's row sorts before every record).
 */
class FakeStore {
  records: { at: number; id: number; product: string }[] = [];
  token = 't0';
  scans: [number | undefined, number | undefined][] = [];
  async scanKeys(f: FarmKey, fromMs?: number, toMs?: number): Promise<KeyScan> {
    this.scans.push([fromMs, toMs]);
    const keys = this.records
      .filter((r) => (fromMs === undefined || r.at >= fromMs) && (toMs === undefined || r.at <= toMs))
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .map((r) => ({ rowKey: recordRowKey(f.farmId, r.at, r.id), product: r.product }));
    return toMs === undefined ? { keys, token: this.token } : { keys };
  }
}

function setup() {
  const store = new FakeStore();
  let now = T0;
  const index = new RecordKeyIndex(store, 7, 10, () => now);
  const add = (daysAgo: number, id: number, product = 'ES-11179') =>
    store.records.push({ at: now - daysAgo * DAY, id, product });
  return {
    store,
    index,
    add,
    advance: (ms: number) => (now += ms),
    keyOf: (id: number) => recordRowKey(1, store.records.find((r) => r.id === id)!.at, id),
  };
}

describe('RecordKeyIndex', () => {
  it('lists every record newest first, filtering by period and product, reading the old part once', async () => {
    const t = setup();
    t.add(200, 1);
    t.add(30, 2, 'ES-19534');
    t.add(3, 3);
    t.add(0, 4);
    expect(await t.index.keys(farm(1))).toEqual([4, 3, 2, 1].map(t.keyOf));
    expect(t.store.scans).toEqual([
      [EDGE, undefined],
      [undefined, EDGE - 1],
    ]);
    t.store.scans = [];
    expect(await t.index.keys(farm(1), T0 - 31 * DAY, T0 - DAY)).toEqual([3, 2].map(t.keyOf));
    expect(await t.index.keys(farm(1), undefined, undefined, 'ES-11179')).toEqual([4, 3, 1].map(t.keyOf));
    // only the recent part was read again
    expect(t.store.scans).toEqual([
      [EDGE, undefined],
      [EDGE, undefined],
    ]);
  });

  it('sees records registered since, and keeps the keys that cross the window edge without reading them again', async () => {
    const t = setup();
    t.add(8, 1);
    await t.index.keys(farm(1));
    t.add(0, 2); // registered after the first list
    expect(await t.index.keys(farm(1))).toEqual([2, 1].map(t.keyOf));
    t.store.scans = [];
    t.advance(3 * DAY); // record 1 is now older than the window edge
    expect(await t.index.keys(farm(1))).toEqual([2, 1].map(t.keyOf));
    expect(await t.index.keys(farm(1))).toEqual([2, 1].map(t.keyOf));
    // the first list after the move still reads from the old edge; the next one from the new edge
    expect(t.store.scans).toEqual([
      [EDGE, undefined],
      [EDGE + 3 * DAY, undefined],
    ]);
  });

  it('reads the old part again when the list token changed (an old record amended or deleted)', async () => {
    const t = setup();
    t.add(100, 1);
    t.add(50, 2);
    await t.index.keys(farm(1));
    // record 2 amended to another old date, record 1 deleted: the store writes a new token with each change
    t.store.records = [{ at: T0 - 60 * DAY, id: 2, product: 'ES-11179' }];
    t.store.token = 't1';
    t.store.scans = [];
    expect(await t.index.keys(farm(1))).toEqual([recordRowKey(1, T0 - 60 * DAY, 2)]);
    expect(t.store.scans).toEqual([
      [EDGE, undefined],
      [undefined, EDGE - 1],
    ]);
    t.store.scans = [];
    await t.index.keys(farm(1));
    expect(t.store.scans).toEqual([[EDGE, undefined]]);
  });

  it('keeps farms apart, and forgets the least recently used beyond its size', async () => {
    const t = setup();
    t.add(100, 1);
    for (let f = 1; f <= 11; f++) await t.index.keys(farm(f));
    t.store.scans = [];
    await t.index.keys(farm(11));
    expect(t.store.scans).toHaveLength(1);
    t.store.scans = [];
    await t.index.keys(farm(1)); // evicted: its old part is read again
    expect(t.store.scans).toHaveLength(2);
  });
});
