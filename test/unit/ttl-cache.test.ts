import { TtlCache } from '../../shared/cache/ttl-cache';
import { VersionWatch } from '../../shared/cache/version-watch';

function cache(ttlMs = 1_000, max = 100) {
  const clock = { t: 0 };
  return { clock, cache: new TtlCache<string, string>(ttlMs, max, () => clock.t) };
}

function counter(value = (n: number) => `v${n}`) {
  let calls = 0;
  const load = jest.fn(async () => value(++calls));
  return load;
}

describe('TtlCache', () => {
  it('serves a value from memory until it expires, then loads it again', async () => {
    const { clock, cache: c } = cache(1_000);
    const load = counter();
    expect(await c.get('k', load)).toBe('v1');
    clock.t = 999;
    expect(await c.get('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
    clock.t = 1_000;
    expect(await c.get('k', load)).toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one load between concurrent misses for a key', async () => {
    const { cache: c } = cache();
    let resolve!: (v: string) => void;
    const load = jest.fn(() => new Promise<string>((r) => (resolve = r)));
    const all = Promise.all([c.get('k', load), c.get('k', load), c.get('k', load)]);
    resolve('shared');
    expect(await all).toEqual(['shared', 'shared', 'shared']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps keys apart', async () => {
    const { cache: c } = cache();
    expect(await c.get('a', async () => 'A')).toBe('A');
    expect(await c.get('b', async () => 'B')).toBe('B');
    expect(await c.get('a', async () => 'other')).toBe('A');
  });

  it('does not keep a failed load: the next get loads again', async () => {
    const { cache: c } = cache();
    const failing = jest.fn(async () => {
      throw new Error('storage down');
    });
    await expect(c.get('k', failing)).rejects.toThrow('storage down');
    const load = counter();
    expect(await c.get('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('callers waiting on a failing load all see the failure, and none of it is cached', async () => {
    const { cache: c } = cache();
    let reject!: (e: Error) => void;
    const load = jest.fn(() => new Promise<string>((_, r) => (reject = r)));
    const a = c.get('k', load);
    const b = c.get('k', load);
    reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await expect(b).rejects.toThrow('boom');
    expect(load).toHaveBeenCalledTimes(1);
    expect(await c.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('caches null (an unknown key) like any other value until it expires', async () => {
    const c = new TtlCache<string, string | null>(1_000, 10, () => 0);
    const load = jest.fn(async () => null);
    expect(await c.get('k', load)).toBeNull();
    expect(await c.get('k', load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('holds at most maxEntries, evicting the oldest entry first', async () => {
    const { cache: c } = cache(1_000_000, 2);
    const loads = { a: counter(), b: counter(), c: counter() };
    await c.get('a', loads.a);
    await c.get('b', loads.b);
    await c.get('c', loads.c); // evicts a
    await c.get('c', loads.c);
    await c.get('b', loads.b);
    expect(loads.b).toHaveBeenCalledTimes(1);
    expect(loads.c).toHaveBeenCalledTimes(1);
    expect(await c.get('a', loads.a)).toBe('v2'); // loaded again (and now b, the oldest, goes)
    await c.get('c', loads.c);
    expect(loads.c).toHaveBeenCalledTimes(1);
    await c.get('b', loads.b);
    expect(loads.b).toHaveBeenCalledTimes(2);
  });

  it('delete and clear drop entries', async () => {
    const { cache: c } = cache();
    const load = counter();
    await c.get('k', load);
    c.delete('k');
    expect(await c.get('k', load)).toBe('v2');
    c.clear();
    expect(await c.get('k', load)).toBe('v3');
  });
});

describe('TtlCache with a VersionWatch: misses remembered like hits, dropped when the version changes', () => {
  it('answers a repeated miss from memory, and finds what was added once the version changed and a period passed', async () => {
    let t = 0;
    let version = 'v1';
    let versionReads = 0;
    const watch = new VersionWatch(
      async () => {
        versionReads++;
        return version;
      },
      1000,
      () => t,
    );
    const cache = new TtlCache<string, string | null>(60_000, 10, () => t);
    watch.onChange(() => cache.clear());
    let loads = 0;
    let found: string | null = null;
    const get = async () => {
      await watch.check();
      return cache.get('k', async () => {
        loads++;
        return found;
      });
    };
    expect(await get()).toBeNull();
    expect(await get()).toBeNull();
    expect([loads, versionReads]).toEqual([1, 1]);
    // The back office adds it and bumps the version: within the period, the miss still stands.
    found = 'client';
    version = 'v2';
    t = 500;
    expect(await get()).toBeNull();
    t = 1001;
    expect(await get()).toBe('client');
    expect(await get()).toBe('client');
    expect([loads, versionReads]).toEqual([2, 2]);
    // An unchanged version keeps what is cached.
    t = 2500;
    expect(await get()).toBe('client');
    expect([loads, versionReads]).toEqual([2, 3]);
  });
});
