/**
 * `npm run test:stress`: the whole `npm test`, three times in a row, with every core kept busy by a process of
 * spinning JavaScript, the way a shared CI machine or a laptop compiling something else runs the suite. A test that
 * only passes on an idle machine fails here. Not part of CI (it takes three runs of the suite and all the CPU).
 * Arguments after `--` go to each `npm test` (a file pattern narrows the runs, and then skips the checks).
 *
 *   npm run test:stress [-- <jest args>]
 *
 * The busy processes are this command's own: it stops them when it ends, whether the runs passed, failed or were
 * interrupted (Ctrl-C, SIGTERM), and each stops by itself should this process die without a word (its IPC channel
 * closes).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { findProjectRoot } from './stack';
import { onStopSignal } from './stop-signal';

const ROOT = findProjectRoot(__dirname);
const RUNS = 3;

/** The busy loop: spins for 100 ms at a time, looking up between spins to notice that its parent is gone. */
const SPIN = `
process.on('disconnect', () => process.exit(0));
const spin = () => { const end = Date.now() + 100; while (Date.now() < end); setImmediate(spin); };
spin();
`;

function startLoad(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', SPIN], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }),
  );
}

/** Jest's closing lines ("Test Suites: ...", "Tests: ...") of one run, taken from its output as it passes through. */
const SUMMARY = /^(Test Suites|Tests):\s/;

/** The run in progress, in a process group of its own so that a stop reaches its builds, jest and the stack. */
let current: ChildProcess | undefined;

function runOnce(args: string[], summary: string[]): Promise<number> {
  const child = spawn(process.execPath, [path.join(ROOT, 'local/bootstrap.js'), 'test', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  current = child;
  const watch = (from: NodeJS.ReadableStream, to: NodeJS.WriteStream) => {
    let partial = '';
    from.on('data', (chunk: Buffer) => {
      to.write(chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      // eslint-disable-next-line no-control-regex -- jest colours its summary
      for (const line of lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '')))
        if (SUMMARY.test(line)) summary.push(line.replace(/\s+/g, ' '));
    });
  };
  watch(child.stdout, process.stdout);
  watch(child.stderr, process.stderr);
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const load = startLoad();
  const stopLoad = () => load.forEach((p) => p.kill('SIGKILL'));
  process.on('exit', stopLoad);
  onStopSignal(() => {
    if (current?.pid !== undefined && current.exitCode === null) process.kill(-current.pid, 'SIGTERM');
    process.exit(130);
  });
  console.log(`test:stress: ${load.length} busy processes (one per core), ${RUNS} runs of npm test ${args.join(' ')}`);
  const results: { code: number; summary: string[] }[] = [];
  for (let run = 1; run <= RUNS; run++) {
    console.log(`\n== test:stress run ${run} of ${RUNS}`);
    const summary: string[] = [];
    results.push({ code: await runOnce(args, summary), summary });
  }
  stopLoad();
  console.log(`\n== test:stress: ${RUNS} runs under ${load.length} busy processes`);
  results.forEach((r, i) =>
    console.log(
      `run ${i + 1}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}; ${r.summary.join('; ') || 'no jest summary'}`,
    ),
  );
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

if (require.main === module) void main();
