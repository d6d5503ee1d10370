/**
 * The fixture apps of the runner's tests (test/fixtures/*), compiled to dist/test/fixtures for the runner to load as
 * it loads the real app. Transpiled file by file by esbuild, without type checking: `npm test` type-checks the test
 * project as a whole beside this (tsc -p tsconfig.test.json --noEmit), and nothing else of it runs from dist/.
 *
 *   node dist/local/build-fixtures.js
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { glob } from 'tinyglobby';
import { findProjectRoot } from './stack';

async function main(): Promise<void> {
  const root = findProjectRoot(__dirname);
  const out = path.join(root, 'dist/test/fixtures');
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: await glob('test/fixtures/**/*.ts', { cwd: root, absolute: true }),
    outbase: path.join(root, 'test/fixtures'),
    outdir: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (require.main === module)
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
