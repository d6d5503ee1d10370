import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importCataloguesCommand } from '../../local/admin-catalogues';
import { CATALOGUES } from '../../shared/app/siex-catalogues';
import { loadSiexCodes, SiexCodeStore } from '../../shared/catalog/siex-codes/store';
import { SIEX_DIR } from '../unit/catalog-fixtures';
import { IsolatedTableStore } from './catalog-tables';
import { newerUnitsCatalogue, UNUSED_CATALOGUE } from '../helpers/newer-catalogues';

describe('import-catalogues against Azurite', () => {
  const store = new IsolatedTableStore();
  afterAll(() => store.drop());

  it('imports the official catalogues, then finds nothing to change in the same files', async () => {
    const lines: string[] = [];
    const first = await importCataloguesCommand(SIEX_DIR, store, (l) => lines.push(l));
    // eleven for treatments, ten for fertilizations (issue 25), PROD_VEGETAL for the scopes of use (issue 34), three
    // for harvests (issue 34), the irrigations' good practices and three for analyses (issue 35; irrigations read
    // TIPENERGIA, the harvests'), one for stores, one for treated seed, and the measures of a treatment and their
    // good practices (issue 34), and the fertilizers' commercial products (issue 35)
    expect(first.catalogues.map((c) => c.catalogue)).toHaveLength(34);
    expect(first.missingFiles).toEqual([]);
    expect(first.ignoredFiles).toEqual([]);
    const units = first.catalogues.find((c) => c.catalogue === 'UNIDADES_MEDIDA')!;
    expect(units).toMatchObject({ codes: 82, changed: [], unchanged: 0, problems: [] });
    expect(units.added).toHaveLength(82);
    const crops = first.catalogues.find((c) => c.catalogue === 'PRODUCTOS')!;
    expect(crops.ended.length).toBeGreaterThan(50);
    expect(lines[0]).toContain(SIEX_DIR);
    expect(lines.some((l) => /UNIDADES_MEDIDA\s+82 codes: 82 added/.test(l))).toBe(true);

    const again = await importCataloguesCommand(SIEX_DIR, store, () => undefined);
    for (const c of again.catalogues)
      expect({ c: c.catalogue, added: c.added, changed: c.changed }).toEqual({
        c: c.catalogue,
        added: [],
        changed: [],
      });
    expect(again.catalogues.reduce((n, c) => n + c.unchanged, 0)).toBe(
      first.catalogues.reduce((n, c) => n + c.codes, 0),
    );
  });

  it('loads what it stored into the lookups validation uses', async () => {
    const codes = await loadSiexCodes(store);
    expect(codes.size('ENFERMEDADES')).toBe(601);
    // A kind's own catalogue, by its classes (Código SIEX), not the groups of the first column.
    const withKinds = await loadSiexCodes(store, CATALOGUES);
    expect(withKinds.size('EDIFICACIONES_INSTALACIONES')).toBe(109);
    expect(withKinds.name('EDIFICACIONES_INSTALACIONES', 59)).toBe('Cámaras frigoríficas');
    expect(withKinds.size('TIPO_TRATAMIENTO')).toBe(4);
    expect(withKinds.name('TIPO_TRATAMIENTO', 5)).toBe('Adquisición de semilla tratada fuera de España');
    expect(withKinds.size('TIPO_MEDIDA_FITOSANITARIA')).toBe(14);
    expect(withKinds.size('BUENAS_PRACTICAS_FITO')).toBe(26);
    expect(codes.name('UNIDADES_MEDIDA', 45)).toBe('€/ha');
    expect(codes.units.place('KG/HA')?.unit.code).toBe(17);
    expect(codes.pestByName('Oídio de la vid, Erysiphe necator')?.code).toBe(148);
    expect(codes.isValid('PRODUCTOS', 103, '01-06-2026')).toBe(false); // UVA DE MESA, withdrawn 31/12/2022
    expect(codes.isValid('PRODUCTOS', 102, '01-06-2026')).toBe(true);
  });

  describe('a newer set of files', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'siex-'));
      for (const f of readdirSync(SIEX_DIR)) copyFileSync(path.join(SIEX_DIR, f), path.join(dir, f));
      const unitsFile = path.join(dir, 'UNIDADES_MEDIDA.csv');
      writeFileSync(unitsFile, newerUnitsCatalogue(readFileSync(unitsFile)));
      writeFileSync(path.join(dir, UNUSED_CATALOGUE.file), UNUSED_CATALOGUE.bytes);
      rmSync(path.join(dir, 'EFICACIA_TRATAMIENTO.csv'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reports added, changed and end-dated codes, keeps a code missing from the file, and never deletes', async () => {
      const lines: string[] = [];
      const report = await importCataloguesCommand(dir, store, (l) => lines.push(l));
      const units = report.catalogues.find((c) => c.catalogue === 'UNIDADES_MEDIDA')!;
      expect(units).toMatchObject({ added: ['83'], ended: ['82'], missingFromFile: ['80'] });
      expect(units.changed.sort()).toEqual(['81', '82']);
      expect(report.missingFiles).toEqual(['EFICACIA_TRATAMIENTO.csv']);
      expect(report.ignoredFiles).toEqual([UNUSED_CATALOGUE.file]);
      expect(lines.join('\n')).toMatch(/1 stored code\(s\) not in the file, kept: 80/);
      expect(lines.join('\n')).toMatch(/not in the folder \(left as stored\): EFICACIA_TRATAMIENTO\.csv/);

      const codes = await new SiexCodeStore(store).loadAll();
      expect(codes.name('UNIDADES_MEDIDA', 80)).toBe('g/m2');
      expect(codes.status('UNIDADES_MEDIDA', 82, '29-06-2026')).toBe('valid');
      expect(codes.status('UNIDADES_MEDIDA', 82, '30-06-2026')).toBe('ended');
      expect(codes.name('UNIDADES_MEDIDA', 81)).toBe('cm3/m3');
      expect(codes.size('EFICACIA_TRATAMIENTO')).toBe(3);
    });
  });
});
