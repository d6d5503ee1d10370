import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Invoker } from '../local/runner/invoke';
import { loadApp } from '../local/runner/load-app';
import { createLogger } from '../local/runner/logger';

/**
 * One cold load, in a fresh process (`node dist/bench/cold-start-probe.js APP_ROOT`): how long the app's modules
 * take to load and register their functions, as the Functions worker loads them (package.json `main`, with
 * `@azure/functions-core` provided). Nothing is called unless `--invoke NAME` names an HTTP function to call once
 * after loading (a GET with no headers): then `status` is its answer's and `invokeMs` how long it took. Prints `{ "ms": ..., "functions": ... }`,
 * and with `--modules` the files the load (and the call) required; with `--settle` as well, the files required by the
 * time the process has nothing left to do (the app's warm-up, which start-up only schedules, has run).
 */
async function main(appRoot: string, listModules: boolean, invoke: string | undefined, settle: boolean): Promise<void> {
  const logger = createLogger({ quiet: true, out: () => undefined });
  const before = new Set(Object.keys(require.cache));
  const start = performance.now();
  const app = await loadApp({ root: appRoot, logger });
  const ms = performance.now() - start;
  let status: number | undefined;
  let invokeMs: number | undefined;
  if (invoke) {
    const called = performance.now();
    const fn = app.functions.find((f) => f.metadata.name === invoke);
    if (!fn) throw new Error(`no function named ${invoke}`);
    const trigger = Object.entries(fn.metadata.bindings).find(([, b]) => b.direction === 'in')![0];
    const http = { method: 'GET', url: 'http://localhost/', headers: {}, query: {}, params: {}, body: {} };
    const response = await new Invoker(app.host, logger).invoke(fn, { inputData: [{ name: trigger, data: { http } }] });
    status = Number(response.returnValue?.http?.statusCode);
    invokeMs = performance.now() - called;
  }
  const required = () => Object.keys(require.cache).filter((m) => !before.has(m));
  const modules = listModules ? required() : undefined;
  const report = (settled?: string[]) =>
    process.stdout.write(
      `${JSON.stringify({ ms, functions: app.functions.length, status, invokeMs, modules, settled })}\n`,
    );
  if (settle) process.once('beforeExit', () => report(required()));
  else report();
}

if (require.main === module) {
  const { values, positionals } = parseArgs({
    options: {
      modules: { type: 'boolean', default: false },
      invoke: { type: 'string' },
      settle: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  // Without --settle it exits at once: the figure is the load, not whatever the app scheduled after it.
  main(positionals[0] ?? '.', values.modules, values.invoke, values.settle).then(
    () => (values.settle ? undefined : process.exit(0)),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
