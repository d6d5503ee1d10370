import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startRunnerProcess } from '../local/runner/process';
import { measure } from './measure';

export interface ColdStart {
  runs: number;
  /** Milliseconds to load and register, each run in a fresh process: the deployable app and the bare app. */
  app: { median: number; min: number; max: number; functions: number };
  bare: { median: number; min: number; max: number; functions: number };
  /** Median of the per-pair ratios app / bare (pairs run back to back, so drift on a shared machine cancels). */
  ratio: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The app reads its settings when it registers its functions and refuses to load without them; nothing is called. */
const PROBE_ENV = { ...process.env, AUTH_MODE: 'local', AzureWebJobsStorage: 'UseDevelopmentStorage=true' };

function probe(root: string, appRoot: string): { ms: number; functions: number } {
  const script = path.join(root, 'dist/bench/cold-start-probe.js');
  return JSON.parse(execFileSync(process.execPath, [script, appRoot], { encoding: 'utf8', env: PROBE_ENV })) as {
    ms: number;
    functions: number;
  };
}

/**
 * Loads the deployable app (the repository's package.json main: the bundle in dist/deploy) and a bare
 * `@azure/functions` app with one HTTP function, alternately, each in a fresh Node process, as a Flex instance
 * does at a cold start: modules loaded and functions registered, nothing called.
 */
export function benchColdStart(root: string, runs = 15): ColdStart {
  const bareRoot = path.join(root, 'bench/bare-app');
  probe(root, root);
  probe(root, bareRoot);
  const app: { ms: number; functions: number }[] = [];
  const bare: { ms: number; functions: number }[] = [];
  for (let i = 0; i < runs; i++) {
    app.push(probe(root, root));
    bare.push(probe(root, bareRoot));
  }
  const summary = (xs: { ms: number; functions: number }[]) => ({
    median: median(xs.map((x) => x.ms)),
    min: Math.min(...xs.map((x) => x.ms)),
    max: Math.max(...xs.map((x) => x.ms)),
    functions: xs[0]!.functions,
  });
  return { runs, app: summary(app), bare: summary(bare), ratio: median(app.map((a, i) => a.ms / bare[i]!.ms)) };
}

/** A request's first time in a process against the same request warm (p50). */
export interface FirstAndWarm {
  ms: number;
  warmP50: number;
}

/**
 * The bare app's first request and its warm p50, through the same local runner as the gateway's (a fresh one, loaded
 * as the gateway's is, and reached by this process's already warm fetch): what the first invocation of any
 * `@azure/functions` app costs here (the runner's dispatch and the programming model's request and response
 * conversion, started on first use) before the app's own code runs. The gateway's first request minus this is the
 * app's own share.
 */
export async function benchBareFirstRequest(root: string): Promise<FirstAndWarm> {
  const runner = await startRunnerProcess({
    projectRoot: root,
    appRoot: path.join(root, 'bench/bare-app'),
    quiet: true,
    env: PROBE_ENV,
  });
  const hello = async () => {
    const res = await fetch(`${runner.url}/api/hello`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`bare app: ${res.status}`);
  };
  try {
    const start = performance.now();
    await hello();
    const ms = performance.now() - start;
    return { ms, warmP50: (await measure(hello, 50)).p50 };
  } finally {
    await runner.stop();
  }
}

/** The cold-start row's request: the status of a job that does not exist (404 after the keys and one point read). */
export const FIRST_REQUEST_PATH = '/v1/entities/jobstatus?jobId=999999999';

/** Long enough for the warm-up (functions/index.ts) to end before the request, on a loaded 2-core machine. */
const IDLE_MS = 3000;

/**
 * The first request to a fresh runner that idled `IDLE_MS` after it was ready, its warm-up done: what an instance
 * started ahead of its traffic gives its first request (Flex Consumption's always-ready instances, or one scaled out
 * before the request reaches it), where the figure at once after start is what a request that woke the instance gets.
 */
export async function benchFirstAfterIdle(
  root: string,
  env: NodeJS.ProcessEnv,
  headers: Record<string, string>,
): Promise<number> {
  const runner = await startRunnerProcess({ projectRoot: root, quiet: true, env });
  try {
    await sleep(IDLE_MS);
    const start = performance.now();
    const res = await fetch(`${runner.url}${FIRST_REQUEST_PATH}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 404) throw new Error(`first request after idling: ${res.status}`);
    return performance.now() - start;
  } finally {
    await runner.stop();
  }
}

export function printColdStart(
  c: ColdStart,
  first: FirstAndWarm,
  afterIdleMs: number,
  lookup: FirstAndWarm,
  bare: FirstAndWarm,
): void {
  const f = (v: number) => v.toFixed(1);
  const ratio = (x: FirstAndWarm) => (x.ms / x.warmP50).toFixed(2);
  console.log(`\ncold start (${c.runs} fresh processes each, load and register, nothing called):`);
  console.log(
    `  deployable app (${c.app.functions} functions)  median ${f(c.app.median)} ms  (min ${f(c.app.min)}, max ${f(c.app.max)})`,
  );
  console.log(
    `  bare @azure/functions app (${c.bare.functions})      median ${f(c.bare.median)} ms  (min ${f(c.bare.min)}, max ${f(c.bare.max)})`,
  );
  console.log(`  ratio app / bare (median of pairs)       ${c.ratio.toFixed(2)}   (target: <= 2x, aim 1.5x)`);
  console.log(
    `  first request at once after start (job status, 404; the warm-up competes with it): ${f(first.ms)} ms; ` +
      `warm p50 ${f(first.warmP50)} ms; first / warm ${ratio(first)}   (target: <= 3x)`,
  );
  console.log(
    `  first request after the instance idled ${IDLE_MS} ms (warm-up done): ${f(afterIdleMs)} ms; ` +
      `first / warm ${ratio({ ms: afterIdleMs, warmP50: first.warmP50 })}`,
  );
  console.log(
    `  the bare app's first request through the same runner: ${f(bare.ms)} ms; warm p50 ${f(bare.warmP50)} ms; ` +
      `first / warm ${ratio(bare)}; the gateway's own share of its first request ${f(first.ms - bare.ms)} ms`,
  );
  console.log(
    `  first farm lookup (5,000 enclosures, farm cache cold): ${f(lookup.ms)} ms; warm p50 ${f(lookup.warmP50)} ms; ` +
      `first / warm ${ratio(lookup)}`,
  );
}
