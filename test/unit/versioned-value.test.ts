import { VersionedValue } from '../../shared/cache/versioned-value';

describe('VersionedValue', () => {
  function setup(periodMs: number, settled?: (v: string) => boolean) {
    let version = 'v1';
    let now = 0;
    const loads: string[] = [];
    let versionReads = 0;
    /** Runs while the data loads: a writer changing it meanwhile. */
    let duringLoad = () => {};
    const value = new VersionedValue(
      async () => {
        versionReads++;
        return version;
      },
      async () => {
        loads.push(version);
        const data = `data-${version}`;
        duringLoad();
        return data;
      },
      periodMs,
      () => now,
      settled,
    );
    return {
      value,
      loads,
      reads: () => versionReads,
      setVersion: (v: string) => (version = v),
      advance: (ms: number) => (now += ms),
      whileLoading: (f: () => void) => (duringLoad = f),
    };
  }

  it('loads once, then serves from memory within the period without reading the version', async () => {
    const t = setup(1000);
    expect(await t.value.get()).toBe('data-v1');
    t.advance(999);
    expect(await t.value.get()).toBe('data-v1');
    expect(t.reads()).toBe(1);
    expect(t.loads).toEqual(['v1']);
  });

  it('after the period, reads the version and reloads only when it changed', async () => {
    const t = setup(1000);
    await t.value.get();
    t.advance(1000);
    expect(await t.value.get()).toBe('data-v1');
    expect(t.loads).toEqual(['v1']);
    expect(t.reads()).toBe(2);
    t.setVersion('v2');
    t.advance(1000);
    expect(await t.value.get()).toBe('data-v2');
    expect(t.loads).toEqual(['v1', 'v2']);
  });

  it('with a period of 0 sees a change on the very next request', async () => {
    const t = setup(0);
    await t.value.get();
    t.setVersion('v2');
    expect(await t.value.get()).toBe('data-v2');
  });

  it('names the version the value it answers was loaded under', async () => {
    const t = setup(1000);
    expect(await t.value.versioned()).toEqual({ value: 'data-v1', version: 'v1' });
    t.setVersion('v2');
    t.advance(999);
    expect(await t.value.versioned()).toEqual({ value: 'data-v1', version: 'v1' });
    t.advance(1);
    expect(await t.value.versioned()).toEqual({ value: 'data-v2', version: 'v2' });
  });

  it('confirming loads, names data loaded while the version moved by no version, and reloads it next time', async () => {
    const t = setup(0, () => true);
    t.whileLoading(() => t.setVersion('v2'));
    const mixed = await t.value.versioned();
    expect(mixed.value).toBe('data-v1');
    expect(mixed.version).not.toMatch(/^v[12]$/);
    t.whileLoading(() => {});
    expect(await t.value.versioned()).toEqual({ value: 'data-v2', version: 'v2' });
    expect(t.loads).toEqual(['v1', 'v2']);
  });

  it('names data loaded under a version its writer marks as changing by no version, each load its own', async () => {
    const t = setup(0, (v) => !v.startsWith('changing'));
    t.setVersion('changing-1');
    const first = await t.value.versioned();
    const second = await t.value.versioned();
    expect([first.version, second.version].some((v) => v === 'changing-1')).toBe(false);
    expect(first.version).not.toBe(second.version);
    t.setVersion('v2');
    expect(await t.value.versioned()).toEqual({ value: 'data-v2', version: 'v2' });
    expect(t.loads).toEqual(['changing-1', 'changing-1', 'v2']);
  });

  it('shares one revalidation between concurrent callers', async () => {
    const t = setup(0);
    await Promise.all([t.value.get(), t.value.get(), t.value.get()]);
    expect(t.reads()).toBe(1);
    expect(t.loads).toEqual(['v1']);
  });

  it('a failed revalidation fails the callers and is retried by the next one', async () => {
    let fail = true;
    const value = new VersionedValue(
      async () => {
        if (fail) throw new Error('storage down');
        return 'v1';
      },
      async () => 'data',
      1000,
    );
    await expect(value.get()).rejects.toThrow('storage down');
    fail = false;
    expect(await value.get()).toBe('data');
  });
});
