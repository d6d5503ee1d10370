import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadApp } from '../local/runner/load-app';
import { createLogger } from '../local/runner/logger';

/**
 * One cold load, in a fresh process (`node dist/bench/cold-start-probe.js APP_ROOT`): how long the app's modules
 * take to load and register their functions, as the Functions worker loads them (package.json `main`, with
 * `@azure/functions-core` provided). Nothing is called. Prints `{ "ms": ..., "functions": ... }`, and with
 * `--modules` the files the load required.
 */
async function main(appRoot: string, listModules: boolean): Promise<void> {
  const logger = createLogger({ quiet: true, out: () => undefined });
  const before = new Set(Object.keys(require.cache));
  const start = performance.now();
  const app = await loadApp({ root: appRoot, logger });
  const ms = performance.now() - start;
  const modules = listModules ? Object.keys(require.cache).filter((m) => !before.has(m)) : undefined;
  process.stdout.write(`${JSON.stringify({ ms, functions: app.functions.length, modules })}\n`);
}

if (require.main === module) {
  const { values, positionals } = parseArgs({
    options: { modules: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  main(positionals[0] ?? '.', values.modules).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
