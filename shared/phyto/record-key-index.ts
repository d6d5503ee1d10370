import { appliedAtOf, FarmKey } from './phyto-keys';
import { PhytoStore, RecordKey } from './phyto-store';

/** The calendar-day window allows an application a little more than MAX_BACKDATE_DAYS back (DST, clock skew). */
const MARGIN_MS = 2 * 24 * 3600_000;

/**
 * The keys of a farm's records, for counting and paging a list without reading every key on every request. A record
 * can only be registered with an application date inside the back-dating window, so keys older than the window never
 * change: they are read once per process and kept; each request reads only the recent part (one query). The window
 * edge moves forward with time, and the kept part grows by the keys that crossed it.
 */
export class RecordKeyIndex {
  private readonly farms = new Map<number, Promise<{ before: number; keys: RecordKey[] }>>();

  constructor(
    private readonly store: Pick<PhytoStore, 'scanKeys'>,
    private readonly maxBackdateDays: number,
    private readonly maxFarms = 200,
    private readonly now: () => number = Date.now,
  ) {}

  /** Row keys of the records applied in [fromMs, toMs] (inclusive, either open), of one product if given, newest first. */
  async keys(farm: FarmKey, fromMs?: number, toMs?: number, product?: string): Promise<string[]> {
    const settled = await this.settledKeys(farm);
    const recent = await this.store.scanKeys(farm, settled.before);
    return [...recent, ...settled.keys]
      .filter((k) => {
        const at = appliedAtOf(k.rowKey);
        return (
          (fromMs === undefined || at >= fromMs) &&
          (toMs === undefined || at <= toMs) &&
          (!product || k.product === product)
        );
      })
      .map((k) => k.rowKey);
  }

  /** The keys of records applied before a moment no new record can precede; extended as that moment moves on. */
  private settledKeys(farm: FarmKey): Promise<{ before: number; keys: RecordKey[] }> {
    const edge = this.now() - this.maxBackdateDays * 24 * 3600_000 - MARGIN_MS;
    const { farmId } = farm;
    const current = this.farms.get(farmId);
    const next = (async () => {
      const known = current ? await current.catch(() => undefined) : undefined;
      // Only a whole hour's move is worth a read; keys newer than `before` are read with the recent part anyway.
      if (known && edge - known.before < 3600_000) return known;
      const crossed = await this.store.scanKeys(farm, known?.before, edge - 1);
      return { before: edge, keys: [...crossed, ...(known?.keys ?? [])] };
    })();
    this.farms.delete(farmId);
    this.farms.set(farmId, next);
    next.catch(() => {
      if (this.farms.get(farmId) === next) this.farms.delete(farmId);
    });
    if (this.farms.size > this.maxFarms) this.farms.delete(this.farms.keys().next().value as number);
    return next;
  }
}
