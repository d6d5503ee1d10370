import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DateTime } from 'luxon';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { importDataset } from '../../shared/backoffice/import';
import { Dataset } from '../../shared/backoffice/dataset-schema';
import { ClientStore } from '../../shared/clients/client-store';
import { hashKey, keyMatches } from '../../shared/clients/keys';
import { FarmStore } from '../../shared/farms/farm-store';
import { sigpacCode } from '../../shared/farms/sigpac';
import { CatalogStore } from '../../shared/catalog/catalog-store';
import { TABLES, TableName, TableStore } from '../../shared/store/tables';
import { Crash, CrashPlan, killable } from '../helpers/killable';
import { CAMPAIGN, dataset, enclosure, suffix, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { allEntities, partition, testTables } from '../helpers/storage';
import { checkFarmShape } from '../helpers/spec-shapes';
import { runAdminCli as runAdmin } from '../helpers/admin-cli';

/** A product and an applicator with codes unique to this run (the catalog partitions are shared by every test). */
function uniqueCatalog() {
  const n = parseInt(suffix(3), 16);
  const product = {
    code: `ES-9${String(n % 10_000).padStart(4, '0')}`,
    name: `PRODUCTO PRUEBA ${n}`,
    type: { id: 1, name: 'Fungicida' },
    holder: { name: 'TEST, S.A.', nif: '' },
    substance: { name: 'AZUFRE 80% [WG] P/P' },
    registered: '01-01-2020',
    expires: '31-12-2030',
    lastUse: '',
    requiredLevel: 'basico' as const,
    uses: [
      {
        cropTypeIds: ['102'],
        pest: { code: 148, kind: 'enfermedad' as const, name: 'Oídio' },
        doseMin: 0.25,
        doseMax: 0.8,
        unit: { code: 14, symbol: '%' },
      },
    ],
  };
  const applicator = {
    nif: '12345678Z',
    name: 'Ana Pérez',
    ropo: `ES-9${String(n).padStart(7, '0').slice(-7)}`,
    levels: ['cualificado' as const],
    validUntil: '31-12-2030',
    suspended: false,
  };
  return { product, applicator };
}

/** Validated as the CLI does; the tests below only import datasets that pass. */
function valid(input: Dataset): Dataset {
  const r = validateDataset(JSON.parse(JSON.stringify(input)));
  if (!r.dataset) throw new Error(JSON.stringify(r.problems));
  return r.dataset;
}

/** idcp by crop key and SIGPAC code, read back from the stored farm index. */
async function storedIdcps(farms: FarmStore, rea: string, year = CAMPAIGN): Promise<Map<string, number>> {
  const info = await farms.lookupInfo(rea, year);
  const index = (await farms.readIndex(info!.farmId))!.index;
  return new Map(
    index.idcps.map((e) => [`${index.crops[e.crop].typecropId}~${index.crops[e.crop].code}|${sigpacCode(e)}`, e.idcp]),
  );
}

function writeTemp(json: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'siex-import-')), 'dataset.json');
  writeFileSync(file, JSON.stringify(json, null, 2));
  return file;
}

describe('importDataset against Azurite', () => {
  it('is idempotent: the same dataset twice reports everything unchanged the second time, and writes nothing', async () => {
    const tables = testTables();
    const reaA = uniqueRea();
    const reaB = uniqueRea();
    const { product, applicator } = uniqueCatalog();
    const ds = valid(
      dataset({
        clients: [testClient('idem', [reaA, reaB])],
        applicators: [applicator],
        products: [product],
        farms: [testFarm(reaA), testFarm(reaB, { year: 2025 })],
      }),
    );
    const first = await importDataset(ds, tables);
    expect(first).toEqual({
      clients: { added: 1, changed: 0, unchanged: 0 },
      applicators: { added: 1, changed: 0, unchanged: 0 },
      products: { added: 1, changed: 0, unchanged: 0 },
      farms: { added: 2, changed: 0, unchanged: 0 },
    });
    const farms = new FarmStore(tables, 0);
    const viewBefore = await partition(tables, TABLES.farms, `lookup~${reaA}~${CAMPAIGN}`);
    const second = await importDataset(ds, tables, DateTime.now().plus({ days: 3 }));
    expect(second).toEqual({
      clients: { added: 0, changed: 0, unchanged: 1 },
      applicators: { added: 0, changed: 0, unchanged: 1 },
      products: { added: 0, changed: 0, unchanged: 1 },
      farms: { added: 0, changed: 0, unchanged: 2 },
    });
    // nothing rewritten: same ETags, same view text (dateCreated of the first import)
    const viewAfter = await partition(tables, TABLES.farms, `lookup~${reaA}~${CAMPAIGN}`);
    expect(viewAfter.map((e) => e.etag)).toEqual(viewBefore.map((e) => e.etag));
    expect(await farms.lookupView(reaB, 2025)).not.toBeNull();
    expect(await farms.lookupView(reaB, CAMPAIGN)).toBeNull();
  });

  it('stores the rendered farm view with the spec shape, and the farm id the index holds', async () => {
    const tables = testTables();
    const rea = uniqueRea();
    await importDataset(valid(dataset({ farms: [testFarm(rea)] })), tables, DateTime.fromISO('2026-03-01T09:00:00Z'));
    const farms = new FarmStore(tables, 0);
    const [view] = JSON.parse((await farms.lookupView(rea, CAMPAIGN))!);
    checkFarmShape(view);
    expect(view.dateCreated).toBe('01-03-2026 10:00:00');
    const info = await farms.lookupInfo(rea, CAMPAIGN);
    expect(view.id).toBe(`urn:ngsi-ld:AgriFarm:${info!.farmId}`);
    const index = (await farms.index(info!.farmId))!;
    expect(index.meta).toMatchObject({ rea, year: CAMPAIGN });
    const viewIdcps = view.agriCrop.flatMap((c: any) =>
      c.agriParcel.flatMap((p: any) => p.sigpac.map((s: any) => s.idcp)),
    );
    expect([...index.byIdcp.keys()].sort()).toEqual([...viewIdcps].sort());
  });

  it('keeps every idcp, crop, parcel and farm id across re-imports; new enclosures get new ids, removed ones vanish', async () => {
    const tables = testTables();
    const farms = new FarmStore(tables, 0);
    const rea = uniqueRea();
    await importDataset(valid(dataset({ farms: [testFarm(rea)] })), tables);
    const before = await storedIdcps(farms, rea);
    const [viewBefore] = JSON.parse((await farms.lookupView(rea, CAMPAIGN))!);

    const changed = testFarm(rea, { name: 'Finca renombrada' });
    changed.crops[0].parcels[0].sigpac.splice(1, 1); // 12-45-2 removed
    changed.crops[0].parcels[1].sigpac.push(enclosure(14, 7, 2)); // new enclosure
    changed.crops[0].parcels[0].sigpac[0] = { ...changed.crops[0].parcels[0].sigpac[0], prov: '046' }; // same enclosure, padded
    const report = await importDataset(valid(dataset({ farms: [changed] })), tables);
    expect(report.farms).toEqual({ added: 0, changed: 1, unchanged: 0 });

    const after = await storedIdcps(farms, rea);
    expect(after.get('102~1001|46-213-0-0-12-45-1')).toBe(before.get('102~1001|46-213-0-0-12-45-1'));
    expect(after.get('102~1001|46-213-0-0-14-7-1')).toBe(before.get('102~1001|46-213-0-0-14-7-1'));
    expect(after.get('101~2001|46-213-0-0-12-45-1')).toBe(before.get('101~2001|46-213-0-0-12-45-1'));
    expect(after.has('102~1001|46-213-0-0-12-45-2')).toBe(false);
    const added = after.get('102~1001|46-213-0-0-14-7-2')!;
    expect([...before.values()]).not.toContain(added);

    const [viewAfter] = JSON.parse((await farms.lookupView(rea, CAMPAIGN))!);
    expect(viewAfter.id).toBe(viewBefore.id);
    expect(viewAfter.name).toBe('Finca renombrada');
    expect(viewAfter.dateCreated).toBe(viewBefore.dateCreated);
    expect(viewAfter.agriCrop.map((c: any) => c.id)).toEqual(viewBefore.agriCrop.map((c: any) => c.id));
    expect(viewAfter.agriCrop[0].agriParcel.map((p: any) => p.id)).toEqual(
      viewBefore.agriCrop[0].agriParcel.map((p: any) => p.id),
    );

    // importing the first version again brings the removed enclosure back with a new idcp (ids never repeat)
    await importDataset(valid(dataset({ farms: [testFarm(rea)] })), tables);
    const again = await storedIdcps(farms, rea);
    expect(again.get('102~1001|46-213-0-0-12-45-1')).toBe(before.get('102~1001|46-213-0-0-12-45-1'));
    expect([...before.values(), ...after.values()]).not.toContain(again.get('102~1001|46-213-0-0-12-45-2'));
  });

  it('never gives two farms (or two enclosures) the same id, even when imported concurrently', async () => {
    const reas = [uniqueRea(), uniqueRea(), uniqueRea()];
    await Promise.all(reas.map((rea) => importDataset(valid(dataset({ farms: [testFarm(rea)] })), testTables())));
    const farms = new FarmStore(testTables(), 0);
    const farmIds = await Promise.all(reas.map(async (rea) => (await farms.lookupInfo(rea, CAMPAIGN))!.farmId));
    expect(new Set(farmIds).size).toBe(3);
    const idcps = (await Promise.all(reas.map((rea) => storedIdcps(farms, rea)))).flatMap((m) => [...m.values()]);
    expect(new Set(idcps).size).toBe(idcps.length);
  });

  it('round-trips a farm of 5,000 enclosures, whose view and index each take more than one entity', async () => {
    const tables = testTables();
    const rea = uniqueRea();
    const big = testFarm(rea, {
      crops: [
        {
          typecrop: { id: '102', name: 'VIÑA' },
          code: 1002,
          name: 'BOBAL',
          parcels: Array.from({ length: 50 }, (_, p) => ({
            name: `Sector ${p + 1}`,
            sigpac: Array.from({ length: 100 }, (_, e) => ({
              ...enclosure(10 + p, 100 + Math.floor(e / 4), (e % 4) + 1),
              dgc: `46${p}${e}`,
            })),
          })),
        },
      ],
    });
    const ds = valid(dataset({ farms: [big] }));
    await importDataset(ds, tables);
    const farms = new FarmStore(tables, 0);
    const info = (await farms.lookupInfo(rea, CAMPAIGN))!;
    expect(info.rows).toBeGreaterThan(1);
    expect((await farms.readIndex(info.farmId))!.rows).toBeGreaterThan(1);
    const [view] = JSON.parse((await farms.lookupView(rea, CAMPAIGN))!);
    checkFarmShape(view);
    const enclosures = view.agriCrop[0].agriParcel.flatMap((p: any) => p.sigpac);
    expect(enclosures).toHaveLength(5000);
    expect(new Set(enclosures.map((s: any) => s.idcp)).size).toBe(5000);
    const index = (await farms.index(info.farmId))!;
    expect(index.byIdcp.size).toBe(5000);
    expect(index.byCrop.get('102~1002')!.get('46-213-0-0-59-124-4')!.idcp).toBe(enclosures[4999].idcp);
    // a re-import of the same farm is unchanged; shrinking it leaves no stale rows behind
    expect((await importDataset(ds, tables)).farms.unchanged).toBe(1);
    await importDataset(valid(dataset({ farms: [testFarm(rea)] })), tables);
    expect((await farms.lookupInfo(rea, CAMPAIGN))!.rows).toBe(1);
    expect(JSON.parse((await farms.lookupView(rea, CAMPAIGN))!)[0].agriCrop).toHaveLength(2);
  });
});

describe('clients in storage', () => {
  it('stores keys only as hashes: no raw key anywhere in the clients table', async () => {
    const tables = testTables();
    const client = testClient('hash', [uniqueRea()]);
    await importDataset(valid(dataset({ clients: [client] })), tables);
    const rows = await allEntities(tables, TABLES.clients);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(client.sidKey);
    expect(text).not.toContain(client.apiKey);
    // the row exists, keyed by the SID hash, and holds the API key's hash
    const row = rows.find((r) => r.partitionKey === 'sid' && r.rowKey === hashKey(client.sidKey));
    expect(row).toMatchObject({ clientId: client.id, apiKeyHash: hashKey(client.apiKey) });
    const found = await new ClientStore(tables).findBySidKey(client.sidKey);
    expect(found).toMatchObject({
      id: client.id,
      name: client.name,
      email: client.email,
      expires: '',
      farms: client.farms,
    });
    expect(keyMatches(client.apiKey, found!.apiKeyHash)).toBe(true);
    expect(keyMatches(client.sidKey, found!.apiKeyHash)).toBe(false);
  });

  it("rotating a client's SID key removes the old row: the old key no longer finds the client", async () => {
    const tables = testTables();
    const store = new ClientStore(tables);
    const v1 = testClient('rotate', [uniqueRea()], { expires: '31-12-2030' });
    await importDataset(valid(dataset({ clients: [v1] })), tables);
    const v2 = { ...v1, sidKey: `${v1.sidKey}-rotated`, apiKey: `${v1.apiKey}-rotated` };
    const report = await importDataset(valid(dataset({ clients: [v2] })), tables);
    expect(report.clients).toEqual({ added: 0, changed: 1, unchanged: 0 });
    expect(await store.findBySidKey(v1.sidKey)).toBeNull();
    const found = await store.findBySidKey(v2.sidKey);
    expect(found).toMatchObject({ id: v1.id, expires: '2030-12-31' });
    expect(keyMatches(v2.apiKey, found!.apiKeyHash)).toBe(true);
    expect(keyMatches(v1.apiKey, found!.apiKeyHash)).toBe(false);
    const rows = (await partition(tables, TABLES.clients, 'sid')).filter((r) => r.clientId === v1.id);
    expect(rows.map((r) => r.rowKey)).toEqual([hashKey(v2.sidKey)]);
    // and the rotated dataset imported again is unchanged
    expect((await importDataset(valid(dataset({ clients: [v2] })), tables)).clients.unchanged).toBe(1);
  });

  it('overlaps a SID rotation: the new and the previous key both find the client until an import drops the previous', async () => {
    const tables = testTables();
    const store = new ClientStore(tables);
    const v1 = testClient('overlap', [uniqueRea()]);
    await importDataset(valid(dataset({ clients: [v1] })), tables);
    const v2 = { ...v1, sidKey: `${v1.sidKey}-next`, previousSidKey: v1.sidKey };
    expect((await importDataset(valid(dataset({ clients: [v2] })), tables)).clients.changed).toBe(1);
    const sidRows = async () =>
      (await partition(tables, TABLES.clients, 'sid')).filter((r) => r.clientId === v1.id).map((r) => r.rowKey);
    expect((await sidRows()).sort()).toEqual([hashKey(v1.sidKey), hashKey(v2.sidKey)].sort());
    for (const key of [v1.sidKey, v2.sidKey]) expect(await store.findBySidKey(key)).toMatchObject({ id: v1.id });
    expect((await importDataset(valid(dataset({ clients: [v2] })), tables)).clients.unchanged).toBe(1);
    // a change of the client reaches both rows
    const farms = [uniqueRea()];
    await importDataset(valid(dataset({ clients: [{ ...v2, farms }] })), tables);
    for (const key of [v1.sidKey, v2.sidKey]) expect(await store.findBySidKey(key)).toMatchObject({ farms });
    const v3 = { ...v2, farms, previousSidKey: undefined };
    expect((await importDataset(valid(dataset({ clients: [v3] })), tables)).clients.changed).toBe(1);
    expect(await store.findBySidKey(v1.sidKey)).toBeNull();
    expect(await store.findBySidKey(v2.sidKey)).toMatchObject({ id: v1.id });
    expect(await sidRows()).toEqual([hashKey(v2.sidKey)]);
  });

  it('loads hashed keys as the same stored hashes as clear ones: the keys behind them authenticate', async () => {
    const tables = testTables();
    const store = new ClientStore(tables);
    const keys = testClient('hashed', []);
    const hashed = {
      ...keys,
      sidKey: `sha256:${hashKey(keys.sidKey)}`,
      previousSidKey: `sha256:${hashKey(`${keys.sidKey}-old`)}`,
      apiKey: `sha256:${hashKey(keys.apiKey)}`,
    };
    expect((await importDataset(valid(dataset({ clients: [hashed] })), tables)).clients.added).toBe(1);
    const found = await store.findBySidKey(keys.sidKey);
    expect(found).toMatchObject({ id: keys.id });
    expect(keyMatches(keys.apiKey, found!.apiKeyHash)).toBe(true);
    expect(await store.findBySidKey(`${keys.sidKey}-old`)).toMatchObject({ id: keys.id });
    expect(await store.findBySidKey(hashed.sidKey)).toBeNull(); // the hash is not a key
    // the same client written in clear is the same client: nothing to change
    const clear = { ...keys, previousSidKey: `${keys.sidKey}-old` };
    expect((await importDataset(valid(dataset({ clients: [clear] })), tables)).clients.unchanged).toBe(1);
  });

  it('takes over a client stored before it could have two SID keys, and rotates it', async () => {
    const tables = testTables();
    const store = new ClientStore(tables);
    const v1 = testClient('legacy', []);
    await importDataset(valid(dataset({ clients: [v1] })), tables);
    // the link row as the earlier code wrote it: no previousSidHash column
    const table = await tables.table(TABLES.clients);
    await table.upsertEntity({ partitionKey: 'client', rowKey: v1.id, sidHash: hashKey(v1.sidKey) }, 'Replace');
    expect((await importDataset(valid(dataset({ clients: [v1] })), tables)).clients.unchanged).toBe(1);
    const v2 = { ...v1, sidKey: `${v1.sidKey}-next` };
    await importDataset(valid(dataset({ clients: [v2] })), tables);
    expect(await store.findBySidKey(v1.sidKey)).toBeNull();
    expect(await store.findBySidKey(v2.sidKey)).toMatchObject({ id: v1.id });
  });

  it('never deletes a SID row another client has taken meanwhile', async () => {
    const tables = testTables();
    const store = new ClientStore(tables);
    const a = testClient('giver', []);
    const b = testClient('taker', []);
    await importDataset(valid(dataset({ clients: [a] })), tables);
    // b takes a's key before a's import drops it (one file of several, imported in that order)
    await importDataset(valid(dataset({ clients: [{ ...b, sidKey: a.sidKey }] })), tables);
    await importDataset(valid(dataset({ clients: [{ ...a, sidKey: `${a.sidKey}-next` }] })), tables);
    expect(await store.findBySidKey(a.sidKey)).toMatchObject({ id: b.id });
  });

  it('never lets a dropped SID key survive an import killed at any storage call, once the import is run again', async () => {
    const tables = testTables();
    const v1 = testClient('crash', []);
    const v2 = { ...v1, sidKey: `${v1.sidKey}-next` };
    const registration = (c: typeof v1) => ({ ...valid(dataset({ clients: [c] })).clients[0], expiresIso: '' });
    const dying = (plan: CrashPlan) =>
      new ClientStore({ table: async (name: TableName) => killable(await tables.table(name), plan) } as TableStore);
    const calls: string[] = [];
    await new ClientStore(tables).upsert(registration(v1));
    await dying({ left: Infinity, mode: 'before', dead: false, calls }).upsert(registration(v2));
    expect(calls.length).toBeGreaterThan(3);
    for (const mode of ['before', 'after'] as const)
      for (let at = 1; at <= calls.length; at++) {
        await new ClientStore(tables).upsert(registration(v1));
        const first = await dying({ left: at, mode, dead: false })
          .upsert(registration(v2))
          .then(
            () => 'completed',
            (e: unknown) => (e instanceof Crash ? 'crashed' : Promise.reject(e as Error)),
          );
        await new ClientStore(tables).upsert(registration(v2));
        const label = `${mode} ${calls[at - 1]} (call ${at}, first ${first})`;
        const store = new ClientStore(tables);
        expect([label, await store.findBySidKey(v1.sidKey)]).toEqual([label, null]);
        expect([label, (await store.findBySidKey(v2.sidKey))?.id]).toEqual([label, v1.id]);
      }
  });

  it("updates a client's farms and expiry in place, keeping its SID row", async () => {
    const tables = testTables();
    const store = new ClientStore(tables);
    const [a, b] = [uniqueRea(), uniqueRea()];
    const v1 = testClient('farms', [a]);
    await importDataset(valid(dataset({ clients: [v1] })), tables);
    const report = await importDataset(
      valid(dataset({ clients: [{ ...v1, farms: [b, a, b], expires: '01-01-2027' }] })),
      tables,
    );
    expect(report.clients.changed).toBe(1);
    expect(await store.findBySidKey(v1.sidKey)).toMatchObject({ farms: [a, b].sort(), expires: '2027-01-01' });
  });

  it('answers null for an unknown SID key', async () => {
    expect(await new ClientStore(testTables()).findBySidKey(`unknown-${suffix()}`)).toBeNull();
  });
});

describe('admin CLI import (all-or-nothing)', () => {
  it('rejects a dataset with any invalid entry and writes nothing of it, listing every problem by path', async () => {
    const tables = testTables();
    const rea = uniqueRea();
    const good = testClient('aon', [rea]);
    const { product, applicator } = uniqueCatalog();
    const file = writeTemp({
      clients: [good, { ...testClient('aon2', []), apiKey: 'short' }],
      applicators: [applicator],
      products: [product],
      farms: [testFarm(rea), { ...testFarm(uniqueRea()), year: 1999 }],
    });
    const r = await runAdmin(['import', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rejected, nothing was written');
    expect(r.stderr).toContain('$.clients[1].apiKey');
    expect(r.stderr).toContain('$.farms[1].year');
    expect(r.stderr).toMatch(/2 problem/);
    // none of the valid entries were written either
    expect(await new ClientStore(tables).findBySidKey(good.sidKey)).toBeNull();
    expect(
      await partition(tables, TABLES.clients, 'client').then((rows) => rows.some((e) => e.rowKey === good.id)),
    ).toBe(false);
    expect(await new FarmStore(tables, 0).lookupView(rea, CAMPAIGN)).toBeNull();
    const catalog = new CatalogStore(tables);
    expect((await catalog.loadProducts()).map((p) => p.code)).not.toContain(product.code);
    expect((await catalog.loadApplicators()).map((a) => a.ropo)).not.toContain(applicator.ropo);
  });

  it('rejects a file that is not JSON, and a missing file, with exit code 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'siex-import-'));
    writeFileSync(path.join(dir, 'bad.json'), '{ "clients": [');
    const bad = await runAdmin(['import', path.join(dir, 'bad.json')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('cannot read');
    const missing = await runAdmin(['import', path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
  });

  it('new-key prints a fresh key once with its hash; a dataset of that hash loads, and the key finds the client', async () => {
    const [sid, api] = [await runAdmin(['new-key']), await runAdmin(['new-key'])];
    for (const r of [sid, api]) {
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^key {2}[A-Za-z0-9_-]{43}\nhash sha256:[0-9a-f]{64}\n$/);
      expect(r.stderr).toContain('shown only now');
    }
    const printed = (r: { stdout: string }) => ({
      key: /^key {2}(\S+)$/m.exec(r.stdout)![1],
      hash: /^hash (\S+)$/m.exec(r.stdout)![1],
    });
    expect(printed(sid).key).not.toBe(printed(api).key);
    const client = { ...testClient('newkey', []), sidKey: printed(sid).hash, apiKey: printed(api).hash };
    const file = writeTemp({ clients: [client] });
    expect(readFileSync(file, 'utf8')).not.toContain(printed(sid).key);
    const imported = await runAdmin(['import', file]);
    expect(imported.code).toBe(0);
    const found = await new ClientStore(testTables()).findBySidKey(printed(sid).key);
    expect(found).toMatchObject({ id: client.id });
    expect(keyMatches(printed(api).key, found!.apiKeyHash)).toBe(true);
  });

  it('into Azure (storage by account name) refuses every key in clear, old datasets included, before touching storage', async () => {
    const old = testClient('old-form', []);
    const mixed = {
      ...testClient('mixed', []),
      apiKey: `sha256:${hashKey('x'.repeat(40))}`,
      previousSidKey: 'y'.repeat(40),
    };
    const file = writeTemp({ clients: [old, mixed] });
    const r = await runAdmin(['import', file], null, { AzureWebJobsStorage__accountName: 'stnotreachable' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rejected, nothing was written. 4 problem(s)');
    for (const at of ['[0].sidKey', '[0].apiKey', '[1].sidKey', '[1].previousSidKey'])
      expect(r.stderr).toContain(`$.clients${at}: a key in clear: write its hash (sha256:`);
    expect(r.stderr).not.toContain('$.clients[1].apiKey');
  });

  it('imports a valid file and prints what it added, then that everything is unchanged', async () => {
    const rea = uniqueRea();
    const client = testClient('cli', [rea]);
    const file = writeTemp({ clients: [client], farms: [testFarm(rea)] });
    const first = await runAdmin(['import', file]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/clients\s+added 1, changed 0, unchanged 0/);
    expect(first.stdout).toMatch(/farms\s+added 1, changed 0, unchanged 0/);
    const second = await runAdmin(['import', file]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/clients\s+added 0, changed 0, unchanged 1/);
    expect(second.stdout).toMatch(/farms\s+added 0, changed 0, unchanged 1/);
    expect(await new ClientStore(testTables()).findBySidKey(client.sidKey)).toMatchObject({ id: client.id });
  });
});
