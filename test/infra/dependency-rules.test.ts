import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';

/**
 * Each import rule of .dependency-cruiser.cjs catches what it is for, in a small tree laid out like ours (`npm test`
 * runs the rules on the repository itself in local/check.ts; dependency-cruiser is an ES module, so it runs as its
 * own process).
 */
const ROOT = findProjectRoot(__dirname);
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

function cruise(cwd: string, dirs: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, '--config', CONFIG, ...dirs], { cwd, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'siex-deps-'));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('dependency rules', () => {
  it('catch the domain importing HTTP, production importing tooling, the dataset schema outside the back office, cycles, the core naming a kind or the wire, a kind importing another, and a kind reading the wire outside its wire modules', () => {
    const dir = tree({
      'shared/http/problem.ts': `export const status = 400;\n`,
      'shared/phyto/rules.ts': `import { status } from '../http/problem';\nexport const s = status;\n`,
      'shared/export/job.ts': `import { fixture } from '../../test/helpers/fixture';\nexport const f = fixture;\n`,
      'test/helpers/fixture.ts': `export const fixture = 1;\n`,
      'shared/backoffice/dataset-schema.ts': `export const datasetSchema = {};\n`,
      'shared/farms/farm.ts': `import { datasetSchema } from '../backoffice/dataset-schema';\nexport const d = datasetSchema;\n`,
      'shared/catalog/a.ts': `import { b } from '../clients/b';\nexport const a = 1 + b;\n`,
      'shared/clients/b.ts': `import { c } from '../catalog/c';\nexport const b = c;\n`,
      'shared/catalog/c.ts': `export const c = 1;\n`,
      'shared/harvest/harvest.ts': `export const harvest = 1;\n`,
      'shared/api/record-fields.ts': `export const fields = 1;\n`,
      'shared/records/kind-aware.ts': `import { harvest } from '../harvest/harvest';\nexport const k = harvest;\n`,
      'shared/siex/wire-aware.ts': `import { fields } from '../api/record-fields';\nexport const w = fields;\n`,
      'shared/export/kind-free.ts': `import { c } from '../catalog/c';\nexport const e = c;\n`,
      'shared/harvest/kind-entry.ts': `export const harvestEntry = 1;\n`,
      'shared/phyto/kind-entry.ts': `export const phytoEntry = 1;\n`,
      'shared/phyto/treatment.ts': `export const days = 21;\n`,
      'shared/harvest/pre-harvest.ts': `import { days } from '../phyto/treatment';\nexport const d = days;\n`,
      'shared/harvest/own-folder.ts': `import { harvest } from './harvest';\nexport const o = harvest;\n`,
      'shared/harvest/rules.ts': `import { fields } from '../api/record-fields';\nexport const r = fields;\n`,
      'shared/harvest/wire-mapper.ts': `import { fields } from '../api/record-fields';\nexport const m = fields;\n`,
    });
    try {
      const r = cruise(dir, ['shared', 'test']);
      expect(r.code).not.toBe(0);
      expect(r.out).toMatch(/domain-not-http: shared\/phyto\/rules\.ts/);
      expect(r.out).toMatch(/production-not-tooling: shared\/export\/job\.ts/);
      expect(r.out).toMatch(/dataset-schema-back-office-only: shared\/farms\/farm\.ts/);
      expect(r.out).toMatch(/no-folder-cycles: shared\/(catalog|clients)/);
      expect(r.out).toMatch(/core-names-no-kind: shared\/records\/kind-aware\.ts/);
      expect(r.out).toMatch(/core-names-no-kind: shared\/siex\/wire-aware\.ts/);
      expect(r.out).not.toMatch(/core-names-no-kind: shared\/export\/kind-free\.ts/);
      expect(r.out).toMatch(/no-kind-imports-another: shared\/harvest\/pre-harvest\.ts → shared\/phyto\/treatment\.ts/);
      expect(r.out).not.toMatch(/no-kind-imports-another: shared\/harvest\/own-folder\.ts/);
      expect(r.out).toMatch(/kind-wire-in-wire-modules: shared\/harvest\/rules\.ts/);
      expect(r.out).not.toMatch(/kind-wire-in-wire-modules: shared\/harvest\/wire-mapper\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
