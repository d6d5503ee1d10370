import { mkdtempSync, writeFileSync } from 'node:fs';
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
import { TABLES } from '../../shared/store/tables';
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
