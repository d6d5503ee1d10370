/**
 * The static checks `npm test` runs before the tests (and `npm run check` alone): ESLint with typescript-eslint's
 * type-checked rules, Prettier's format check, the import rules of .dependency-cruiser.cjs and knip's unused files,
 * exports and dependencies (knip.jsonc names the entry points). Each runs as its own
 * process (they are ES modules) and all run even when one fails, so one pass shows every finding.
 *
 *   npm run check
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { findProjectRoot } from './stack';

const ROOT = findProjectRoot(__dirname);
const bin = (file: string) => path.join(ROOT, 'node_modules', file);

const CHECKS: { name: string; args: string[]; fix: string }[] = [
  { name: 'eslint', args: [bin('eslint/bin/eslint.js'), '--max-warnings=0', '.'], fix: 'fix what it lists' },
  {
    name: 'prettier',
    args: [bin('prettier/bin/prettier.cjs'), '--check', '--log-level=warn', '.'],
    fix: 'run npm run format',
  },
  {
    name: 'dependency rules',
    args: [
      bin('dependency-cruiser/bin/dependency-cruise.mjs'),
      '--config',
      '.dependency-cruiser.cjs',
      'functions',
      'shared',
      'local',
      'bench',
      'test',
    ],
    fix: 'see docs/architecture.md, "Layout"',
  },
  {
    name: 'knip',
    args: [bin('knip/bin/knip.js'), '--no-progress'],
    fix: 'remove what nothing uses, or name a missing entry point in knip.jsonc',
  },
];

function main(): void {
  const failed: string[] = [];
  for (const check of CHECKS) {
    const started = performance.now();
    const r = spawnSync(process.execPath, check.args, { cwd: ROOT, stdio: 'inherit' });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (r.status === 0) process.stdout.write(`check ${check.name}: ok (${seconds} s)\n`);
    else failed.push(`${check.name} (${check.fix})`);
  }
  if (failed.length > 0) {
    process.stderr.write(`checks failed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
}

if (require.main === module) main();
