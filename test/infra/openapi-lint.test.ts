import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findProjectRoot } from '../../local/stack';

/**
 * The committed OpenAPI document passes Redocly's recommended rules with no error and no warning (the linter runs
 * in its own process: @redocly/openapi-core is an ES module). A broken copy shows the check can fail.
 */
const ROOT = findProjectRoot(__dirname);
const LINT = path.join(ROOT, 'dist/local/lint-openapi.js');

function lint(file: string): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync(process.execPath, [LINT, file], { cwd: ROOT, encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, out: err.stdout };
  }
}

describe('infra/openapi.json under Redocly recommended rules', () => {
  it('has no error and no warning', () => {
    const r = lint(path.join(ROOT, 'infra/openapi.json'));
    expect(r.out).toMatch(/: 0 problem\(s\)/);
    expect(r.code).toBe(0);
  });

  it('reports a document without a licence or with an operation without responses', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'siex-openapi-'));
    try {
      const doc = JSON.parse(readFileSync(path.join(ROOT, 'infra/openapi.json'), 'utf8'));
      delete doc.info.license;
      doc.paths['/v1/siex/farms'].get.responses = {};
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const r = lint(file);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/info-license/);
      expect(r.out).toMatch(/operation-2xx-response/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
