import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importCataloguesCommand } from '../../local/admin-catalogues';
import { importProductsCommand } from '../../local/admin-products';
import { productSchema } from '../../shared/catalog/product';
import { CatalogStore } from '../../shared/catalog/catalog-store';
import { importRegister, RegisterImportError } from '../../shared/catalog/register/import-register';
import { RegisterFormatError } from '../../shared/catalog/register/json-stream';
import {
  azufreCancelled,
  bordonex,
  cabrio,
  checkmate,
  etifix,
  famolins,
  flypack,
  microthiol,
  penshar,
  phostoxin,
  topik,
  RawProductInput,
  SIEX_DIR,
  use,
  writeRegister,
} from '../unit/catalog-fixtures';
import { IsolatedTableStore } from './catalog-tables';
import { scopedProducts } from '../unit/register-scope-fixtures';
import { scopeOf } from '../../shared/catalog/product';

/** HARNIKO: an herbicide added in the second week; a single dose written as Dosis_Min with Dosis_Max 0. */
const harniko = (): RawProductInput => ({
  num: 'ES-02112',
  name: 'HARNIKO',
  holder: 'GLOBACHEM N.V.',
  formulado: 'ACLONIFEN 60% [SC] P/V',
  registered: '2025-11-03T00:00:00',
  expires: '2027/10/31',
  composition: [['Aclonifen', 60, '%']],
  uses: [
    use('Trigo', 'Dicotiledóneas, malas hierbas de hoja ancha', 1.35, 0.0, 'l/ha', 'NO PROCEDE'),
    use('Cebada', 'Gramíneas anuales', 1.35, 0.0, 'l/ha', 'NO PROCEDE'),
  ],
});

/** Collects what the progress bar writes, as a log file would (not a terminal). */
function captureStream(): NodeJS.WriteStream & { text: string } {
  const sink = { text: '', isTTY: false, write: (chunk: string) => ((sink.text += chunk), true) };
  return sink as unknown as NodeJS.WriteStream & { text: string };
}

describe('import-products against Azurite', () => {
  const store = new IsolatedTableStore();
  const catalog = new CatalogStore(store);
  let dir: string;
  const file = (name: string) => path.join(dir, name);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'register-'));
    await importCataloguesCommand(SIEX_DIR, store, () => undefined);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.drop();
  });

  it('refuses to run before the SIEX catalogues are imported', async () => {
    const empty = new IsolatedTableStore();
    try {
      writeRegister(file('any.json'), [microthiol()]);
      await expect(importRegister(file('any.json'), empty)).rejects.toThrow(RegisterImportError);
      await expect(importRegister(file('any.json'), empty)).rejects.toThrow(/import-catalogues/);
    } finally {
      await empty.drop();
    }
  });

  it('imports a register export: products, uses, and a report of what it could not use', async () => {
    writeRegister(file('week1.json'), [
      microthiol(),
      etifix(),
      cabrio(),
      penshar(),
      { ...azufreCancelled(), estado: 'Vigente', cancelled: '', saleEnd: '' },
    ]);
    const lines: string[] = [];
    const progress = captureStream();
    const report = await importProductsCommand(file('week1.json'), store, {
      today: '01-08-2026',
      out: (l) => lines.push(l),
      progress,
    });

    expect(report).toMatchObject({
      products: 5,
      uses: 18,
      storedProducts: 5,
      rejected: [],
      withdrawn: [],
      changed: [],
      unchanged: 0,
    });
    expect(report.added.sort()).toEqual(['ES-00064', 'ES-00065', 'ES-11179', 'ES-17705', 'ES-24138']);
    expect(report.unmappedCrops).toEqual([{ name: 'Judía forrajera', count: 1 }]);
    expect(report.unresolvedPests).toEqual([{ name: 'Malas hierbas anuales de los frutales', count: 1 }]);
    expect(report.unknownUnits).toEqual([{ name: 'ml/planta', count: 1 }]);
    expect(progress.text).toMatch(/100% 5 products\n$/);

    const text = lines.join('\n');
    expect(text).toContain('5 products, 18 uses; imported in');
    expect(text).toContain('5 added, 0 changed, 0 unchanged, 0 withdrawn, 0 reinstated');
    expect(text).toMatch(/crop names with no SIEX crop[^\n]*\n\s+Judía forrajera {2}\(1 uses\)/);
    expect(text).toMatch(/pests not in the SIEX catalogues[^\n]*\n\s+Malas hierbas anuales de los frutales/);

    const stored = new Map((await catalog.loadProducts()).map((p) => [p.code, p]));
    expect(stored.size).toBe(5);
    for (const p of stored.values()) expect(productSchema.safeParse(p).success).toBe(true);
    expect(stored.get('ES-11179')?.uses.find((u) => u.pest.code === 148)).toMatchObject({
      safetyDays: 'NP',
      maxApplications: 8,
    });
  });

  it('refreshes from a newer export: reports added, changed, withdrawn; ends withdrawn products without deleting them', async () => {
    const week2 = [
      microthiol(),
      { ...etifix(), expires: '2030/11/30' },
      penshar(),
      azufreCancelled(),
      harniko(),
      // cabrio() is gone from the register this week.
    ];
    writeRegister(file('week2.json'), week2, 'envelope');
    const lines: string[] = [];
    const report = await importProductsCommand(file('week2.json'), store, {
      today: '08-08-2026',
      out: (l) => lines.push(l),
      progress: null,
    });

    expect(report.added).toEqual(['ES-02112']);
    expect(report.changed).toEqual(['ES-17705']);
    expect(report.unchanged).toBe(2);
    expect(report.withdrawn).toEqual([
      { code: 'ES-24138', reason: 'cancelled', day: '01-03-2026' },
      { code: 'ES-00065', reason: 'missing', day: '08-08-2026' },
    ]);
    const text = lines.join('\n');
    expect(text).toContain('1 added, 1 changed, 2 unchanged, 2 withdrawn, 0 reinstated');
    expect(text).toContain('ES-00065  no longer in the register, 08-08-2026');
    expect(text).toContain('ES-24138  cancelled in the register, 01-03-2026');

    const stored = new Map((await catalog.loadProducts()).map((p) => [p.code, p]));
    expect(stored.size).toBe(6);
    // Gone from the register: still stored, uses intact, in force up to the import day only.
    expect(stored.get('ES-00065')).toMatchObject({ expires: '08-08-2026', lastUse: '', withdrawn: '08-08-2026' });
    expect(stored.get('ES-00065')?.uses).toHaveLength(4);
    // Cancelled: ends on the cancellation day; usable until the sale deadline that follows it.
    expect(stored.get('ES-24138')).toMatchObject({
      expires: '01-03-2026',
      lastUse: '01-09-2026',
      withdrawn: '01-03-2026',
    });
    expect(stored.get('ES-02112')?.uses).toEqual([
      expect.objectContaining({
        pest: expect.objectContaining({ kind: 'mala_hierba' }),
        doseMin: 1.35,
        doseMax: 1.35,
        safetyDays: 'NP',
      }),
      expect.objectContaining({ pest: expect.objectContaining({ kind: 'mala_hierba' }), doseMin: 1.35, doseMax: 1.35 }),
    ]);
  });

  it('changes nothing when the same export is imported again a week later', async () => {
    const before = await catalog.loadProducts();
    const report = await importProductsCommand(file('week2.json'), store, {
      today: '15-08-2026',
      out: () => undefined,
      progress: null,
    });
    expect(report).toMatchObject({ added: [], changed: [], withdrawn: [], reinstated: [], unchanged: 5 });
    expect(await catalog.loadProducts()).toEqual(before);
  });

  it('reinstates a product that comes back to the register', async () => {
    writeRegister(file('week3.json'), [
      microthiol(),
      { ...etifix(), expires: '2030/11/30' },
      penshar(),
      azufreCancelled(),
      harniko(),
      cabrio(),
    ]);
    const report = await importProductsCommand(file('week3.json'), store, {
      today: '22-08-2026',
      out: () => undefined,
      progress: null,
    });
    expect(report.reinstated).toEqual(['ES-00065']);
    expect((await catalog.loadProducts()).find((p) => p.code === 'ES-00065')).toMatchObject({ expires: '15-09-2026' });
    expect((await catalog.loadProducts()).find((p) => p.code === 'ES-00065')?.withdrawn).toBeUndefined();
  });

  it('writes nothing when the file is cut off, so a broken download cannot withdraw the register', async () => {
    const before = await catalog.loadProducts();
    const whole = readFileSync(file('week2.json'), 'utf8');
    writeFileSync(file('cut.json'), whole.slice(0, Math.floor(whole.length * 0.6)));
    await expect(
      importProductsCommand(file('cut.json'), store, { out: () => undefined, progress: null }),
    ).rejects.toThrow(RegisterFormatError);
    expect(await catalog.loadProducts()).toEqual(before);
  });

  it('issue 12: places the register units on SIEX units, finds groups, and reports units, pests and levels it could not settle', async () => {
    const own = new IsolatedTableStore();
    try {
      await importCataloguesCommand(SIEX_DIR, own, () => undefined);
      const silent = microthiol();
      silent.uses = silent.uses.map((u) => ({ ...u, TipoUsuario: '' }));
      writeRegister(file('issue12.json'), [
        famolins(),
        topik(),
        checkmate(),
        flypack(),
        bordonex(),
        phostoxin(),
        penshar(),
        silent,
      ]);
      const lines: string[] = [];
      const report = await importProductsCommand(file('issue12.json'), own, {
        today: '01-05-2026',
        out: (l) => lines.push(l),
        progress: null,
      });
      // PHOSTOXIN gives no dose (see the label's conditions): not stored, with the reason
      expect(report.rejected.map((r) => r.numRegistro)).toEqual(['13115']);
      expect(report.unknownUnits).toEqual([{ name: 'ml/planta', count: 1 }]);
      expect(report.unresolvedPests).toEqual([{ name: 'Malas hierbas anuales de los frutales', count: 1 }]);
      expect(report.levels).toEqual({ fromRegister: 6, fromMapping: 0, none: ['ES-11179'] });
      const text = lines.join('\n');
      expect(text).toContain('dose units no SIEX unit measures (uses not stored)');
      expect(text).toContain('ROPO card levels: 6 from the register, 0 from ropo-levels.json');
      expect(text).toMatch(/products with no card level from either[^\n]*\n\s+ES-11179/);

      const stored = new Map((await new CatalogStore(own).loadProducts()).map((p) => [p.code, p]));
      for (const p of stored.values()) {
        expect(productSchema.safeParse(p).success).toBe(true);
        // no use is ever stored without a SIEX unit
        for (const u of p.uses) expect([p.code, u.unit.code > 0]).toEqual([p.code, true]);
      }
      expect(stored.get('ES-19548')?.uses.find((u) => u.pest.code === 141)).toMatchObject({
        doseMin: 0.17,
        doseMax: 0.2,
        unit: { code: 18, symbol: 'L/ha' },
      });
      expect(stored.get('ES-01406')?.uses[0].unit).toEqual({ code: 22, symbol: 'Difusores/ha' });
      expect(stored.get('ES-01409')?.uses[0].unit).toEqual({ code: 24, symbol: 'Trampas/ha' });
      expect(
        stored
          .get('ES-19534')
          ?.uses.map((u) => [u.pest.kind, u.pest.code])
          .sort(),
      ).toEqual([
        ['enfermedad', 148],
        ['plaga', 2],
      ]);
    } finally {
      await own.drop();
    }
  });

  it('issue 34: reads the scope of each use, stores post-harvest, premises and seed uses, and counts them', async () => {
    const own = new IsolatedTableStore();
    try {
      await importCataloguesCommand(SIEX_DIR, own, () => undefined);
      writeRegister(file('issue34.json'), [
        microthiol(),
        etifix(),
        cabrio(),
        penshar(),
        famolins(),
        topik(),
        checkmate(),
        bordonex(),
        flypack(),
        phostoxin(),
        azufreCancelled(),
        ...scopedProducts(),
      ]);
      const lines: string[] = [];
      const report = await importProductsCommand(file('issue34.json'), own, {
        today: '01-10-2026',
        out: (l) => lines.push(l),
        progress: null,
      });
      expect(report).toMatchObject({ products: 24, storedProducts: 22, storedUses: 54 });
      expect(report.scopes).toEqual({ field: 28, postharvest: 15, facility: 3, seed: 8 });
      expect(report.notFarm).toEqual([]);
      expect(report.scopeByAgent).toEqual([]);
      expect(lines.join('\n')).toContain('uses by scope: 28 field, 15 postharvest, 3 facility, 8 seed');

      // as stored in the table and read back: the scope of each use; field uses with none, as before scopes
      const stored = new Map((await new CatalogStore(own).loadProducts()).map((p) => [p.code, p]));
      const decco = stored.get('ES-00477')!;
      expect(decco.uses.map(scopeOf).sort()).toEqual([
        'field',
        'field',
        'field',
        'field',
        'postharvest',
        'postharvest',
      ]);
      for (const u of decco.uses.filter((x) => scopeOf(x) === 'field')) expect(u).not.toHaveProperty('scope');
      expect(stored.get('ES-25710')!.uses.filter((u) => u.scope === 'facility')).toHaveLength(3);
      for (const p of stored.values()) expect(productSchema.safeParse(p).success).toBe(true);
    } finally {
      await own.drop();
    }
  });
});
