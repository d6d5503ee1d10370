import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchImportRegister, writeSyntheticRegister } from '../../bench/import-register';
import { CatalogStore } from '../../shared/catalog/catalog-store';
import { importRegister } from '../../shared/catalog/register/import-register';
import { loadSiexCodes } from '../../shared/catalog/siex-codes/store';
import { SIEX_DIR } from '../unit/catalog-fixtures';
import { IsolatedTableStore } from './catalog-tables';

describe('synthetic register (bench) and the mass-withdrawal guard', () => {
  const store = new IsolatedTableStore();
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), 'register-bench-'))));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.drop();
  });

  it('the bench imports the catalogues if needed, then a synthetic register, and gives its figures', async () => {
    const result = await benchImportRegister(store, { products: 40, uses: 600, siexDir: SIEX_DIR });
    expect(result).toMatchObject({ products: 40, uses: 600 });
    expect(result.seconds).toBeGreaterThan(0);
    expect(result.peakRssMb).toBeGreaterThan(10);
    const stored = await new CatalogStore(store).loadProducts();
    expect(stored).toHaveLength(40);
  });

  it('refuses a file that would withdraw most of the register, unless told to', async () => {
    const codes = await loadSiexCodes(store);
    const file = path.join(dir, 'small.json');
    await writeSyntheticRegister(file, codes, 12, 120);
    await expect(importRegister(file, store, { today: '01-08-2026' })).rejects.toThrow(
      /would withdraw 28 of 39 products in force/,
    );
    const forced = await importRegister(file, store, { today: '01-08-2026', allowMassWithdrawal: true });
    expect(forced.withdrawn.filter((w) => w.reason === 'missing')).toHaveLength(28);
  });
});
