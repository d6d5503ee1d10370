import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';

/**
 * A bounded map of values loaded on demand and kept for a fixed time (lru-cache holds them, bounds them and ages
 * them). What it adds: concurrent misses for one key share a single load, so a burst of requests for a cold farm
 * costs one storage read, not one per request; a failed load is not kept; and null (an unknown key) is kept like any
 * value. A period of 0 keeps nothing.
 */
export class TtlCache<K extends NonNullable<unknown>, V> {
  private readonly entries: LRUCache<K, Promise<V>> | null;

  constructor(ttlMs: number, maxEntries: number, now: () => number = () => performance.now()) {
    this.entries =
      ttlMs > 0
        ? new LRUCache<K, Promise<V>>({
            max: maxEntries,
            ttl: ttlMs,
            // Read the clock at every check: lru-cache would otherwise reuse a reading for a millisecond, on a timer.
            ttlResolution: 0,
            // lru-cache reads a start time of 0 as "no expiry", and an injected clock may well start at 0.
            perf: { now: () => now() + 1 },
          })
        : null;
  }

  get(key: K, load: () => Promise<V>): Promise<V> {
    const entries = this.entries;
    if (!entries) return load();
    // An entry is fresh while younger than the period (lru-cache still serves it at exactly the period's age). peek,
    // not get: a hit does not count as a use, so the bound drops the entry loaded longest ago, as it always has.
    const hit = entries.getRemainingTTL(key) > 0 ? entries.peek(key) : undefined;
    if (hit) return hit;
    const value = load();
    entries.set(key, value);
    // A failed load must not be served from the cache.
    value.catch(() => {
      if (entries.peek(key, { allowStale: true }) === value) entries.delete(key);
    });
    return value;
  }

  delete(key: K): void {
    this.entries?.delete(key);
  }

  clear(): void {
    this.entries?.clear();
  }
}
