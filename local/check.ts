/**
 * The static checks `npm test` runs beside its builds (and `npm run check` alone): ESLint with typescript-eslint's
 * type-checked rules, Prettier's format check, the import rules of .dependency-cruiser.cjs and knip's unused files,
 * exports and dependencies (knip.jsonc names the entry points). Each runs as its own
 * process (they are ES modules), all at once (they read sources only, and ESLint alone is most of the time), and all
 * run to the end even when one fails, so one pass shows every finding. A check's output is held until it ends, so
 * the findings of two checks are never interleaved.
 *
 *   npm run check
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { findProjectRoot } from './stack';

const ROOT = findProjectRoot(__dirname);
const bin = (file: string) => path.join(ROOT, 'node_modules', file);

interface Check {
  name: string;
  args: string[];
  fix: string;
}

const CHECKS: Check[] = [
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

/** Runs one check to its end: whether it passed, with its output printed as one block. */
function runCheck(check: Check): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, check.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      process.stdout.write(`check ${check.name}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n`);
      resolve(code === 0);
    });
  });
}

async function main(): Promise<void> {
  const passed = await Promise.all(CHECKS.map(runCheck));
  const failed = CHECKS.filter((_, i) => !passed[i]).map((c) => `${c.name} (${c.fix})`);
  if (failed.length > 0) {
    process.stderr.write(`checks failed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
}

if (require.main === module) void main();
