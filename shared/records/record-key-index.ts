import { systemClock } from '../time/clock';
import { appliedAtOf, FarmKey } from './record-keys';
import { RecordKey, RecordStore } from './record-store';

/** The calendar-day window allows an application a little more than MAX_BACKDATE_DAYS back (DST, clock skew). */
const MARGIN_MS = 2 * 24 * 3600_000;

interface Settled {
  /** Keys of records applied before this instant. */
  before: number;
  keys: RecordKey[];
  /** The farm's list token when they were read. */
  token: string | undefined;
}

/**
 * The keys of a farm's records, for counting and paging a list without reading every key on every request. A new
 * record can only be dated inside the back-dating window, so keys older than the window change only when a record is
 * amended or deleted, and those write a new list token. The old keys are read once per process and kept; each request
 * reads the recent part (one query), which carries the token, and reads the old part again only when the token
 * changed. The window edge moves forward with time, and the kept part grows by the keys that crossed it.
 */
export class RecordKeyIndex {
  private readonly farms = new Map<number, Settled>();

  constructor(
    private readonly store: Pick<RecordStore<unknown, never>, 'scanKeys'>,
    private readonly maxBackdateDays: number,
    private readonly maxFarms = 200,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  /** Row keys of the records applied in [fromMs, toMs] (inclusive, either open), of one product if given, newest first. */
  async keys(farm: FarmKey, fromMs?: number, toMs?: number, product?: string): Promise<string[]> {
    const edge = this.now() - this.maxBackdateDays * 24 * 3600_000 - MARGIN_MS;
    const known = this.farms.get(farm.farmId);
    const before = known?.before ?? edge;
    const recent = await this.store.scanKeys(farm, before);
    const old =
      known && known.token === recent.token
        ? known.keys
        : (await this.store.scanKeys(farm, undefined, before - 1)).keys;
    this.remember(farm.farmId, before, edge, recent.keys, old, recent.token);
    return [...recent.keys, ...old]
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

  /** Keeps the old keys, moving the edge on by whole hours with the recent keys that crossed it (no extra read). */
  private remember(
    farmId: number,
    before: number,
    edge: number,
    recent: RecordKey[],
    old: RecordKey[],
    token: string | undefined,
  ): void {
    const moved = edge - before >= 3600_000;
    const entry: Settled = moved
      ? { before: edge, keys: [...recent.filter((k) => appliedAtOf(k.rowKey) < edge), ...old], token }
      : { before, keys: old, token };
    this.farms.delete(farmId);
    this.farms.set(farmId, entry);
    if (this.farms.size > this.maxFarms) this.farms.delete(this.farms.keys().next().value as number);
  }
}
