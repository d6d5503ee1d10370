import { FarmKey, recordRowKey } from '../../shared/phyto/phyto-keys';
import { RecordKey } from '../../shared/phyto/phyto-store';
import { RecordKeyIndex } from '../../shared/phyto/record-key-index';

const DAY = 24 * 3600_000;
/** Farm campaigns by id, as the index is asked for them. */
const farm = (farmId: number): FarmKey => ({ farmId, rea: `REA${farmId}` });
const T0 = Date.UTC(2026, 10, 22, 12);

/** A farm's records in memory, scanned as the store scans them: by application time, newest first. */
class FakeStore {
  records: { at: number; id: number; product: string }[] = [];
  scans: [number | undefined, number | undefined][] = [];
  async scanKeys(farm: FarmKey, fromMs?: number, toMs?: number): Promise<RecordKey[]> {
    this.scans.push([fromMs, toMs]);
    return this.records
      .filter((r) => (fromMs === undefined || r.at >= fromMs) && (toMs === undefined || r.at <= toMs))
      .sort((a, b) => b.at - a.at || b.id - a.id)
      .map((r) => ({ rowKey: recordRowKey(farm.farmId, r.at, r.id), product: r.product }));
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
  it('lists every record newest first, filtering by period and product, reading the settled part once', async () => {
    const t = setup();
    t.add(200, 1);
    t.add(30, 2, 'ES-19534');
    t.add(3, 3);
    t.add(0, 4);
    expect(await t.index.keys(farm(1))).toEqual([4, 3, 2, 1].map(t.keyOf));
    expect(t.store.scans).toEqual([
      [undefined, T0 - 9 * DAY - 1],
      [T0 - 9 * DAY, undefined],
    ]);
    t.store.scans = [];
    expect(await t.index.keys(farm(1), T0 - 31 * DAY, T0 - DAY)).toEqual([3, 2].map(t.keyOf));
    expect(await t.index.keys(farm(1), undefined, undefined, 'ES-11179')).toEqual([4, 3, 1].map(t.keyOf));
    // only the recent part was read again
    expect(t.store.scans).toEqual([
      [T0 - 9 * DAY, undefined],
      [T0 - 9 * DAY, undefined],
    ]);
  });

  it('sees records registered since, and keeps the keys that cross the window edge as time goes on', async () => {
    const t = setup();
    t.add(8, 1);
    await t.index.keys(farm(1));
    t.add(0, 2); // registered after the first list
    expect(await t.index.keys(farm(1))).toEqual([2, 1].map(t.keyOf));
    t.store.scans = [];
    t.advance(3 * DAY); // record 1 is now older than the window edge
    expect(await t.index.keys(farm(1))).toEqual([2, 1].map(t.keyOf));
    expect(t.store.scans).toEqual([
      [T0 - 9 * DAY, T0 - 6 * DAY - 1],
      [T0 - 6 * DAY, undefined],
    ]);
  });
});
