import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ManagedChild, spawnNode } from './child';

export interface RunnerProcessOptions {
  /** Project root: where `dist/local/runner/main.js` is, and the default app root. */
  projectRoot: string;
  /** App root passed as --root (default: projectRoot). */
  appRoot?: string;
  port?: number;
  main?: string;
  hostJson?: string;
  /** The back-office dataset the stack imported: the runner hides its clients' keys from its output. */
  dataset?: string;
  /** Where the runner appends the app's own log lines unredacted (--telemetry). */
  telemetry?: string;
  /** The instant the app's clock reads at start (the runner's --clock-start; AUTH_MODE=local only). */
  clockStart?: string;
  quiet?: boolean;
  verbose?: boolean;
  drainTimeoutMs?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** The runner's whole environment (settings included). */
  env: NodeJS.ProcessEnv;
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  readyTimeoutMs?: number;
}

export interface RunnerProcess {
  url: string;
  child: ManagedChild;
  stop(): Promise<void>;
}

const READY = /^Runner listening on (http:\/\/\S+)$/;

export function runnerScript(projectRoot: string): string {
  return join(projectRoot, 'dist/local/runner/main.js');
}

/**
 * Starts the runner as a managed child and resolves with its URL once it prints its ready line. Rejects with the
 * runner's own output when it exits first (the app failed to load, a setting is missing...) or takes too long.
 */
export function startRunnerProcess(options: RunnerProcessOptions): Promise<RunnerProcess> {
  const script = runnerScript(options.projectRoot);
  if (!existsSync(script)) {
    return Promise.reject(new Error(`${script} is missing: compile first (npm run build)`));
  }
  const args = [script, '--root', options.appRoot ?? options.projectRoot, '--port', String(options.port ?? 0)];
  if (options.main) args.push('--main', options.main);
  if (options.hostJson) args.push('--host-json', options.hostJson);
  if (options.dataset) args.push('--dataset', options.dataset);
  if (options.telemetry) args.push('--telemetry', options.telemetry);
  if (options.clockStart) args.push('--clock-start', options.clockStart);
  if (options.quiet) args.push('--quiet');
  if (options.verbose) args.push('--verbose');
  if (options.drainTimeoutMs !== undefined) args.push('--drain-timeout', String(options.drainTimeoutMs));
  if (options.headersTimeoutMs !== undefined) args.push('--headers-timeout', String(options.headersTimeoutMs));
  if (options.requestTimeoutMs !== undefined) args.push('--request-timeout', String(options.requestTimeoutMs));

  return new Promise((resolve, reject) => {
    let settled = false;
    const child = spawnNode('gateway', args, {
      cwd: options.projectRoot,
      env: options.env,
      ipc: true,
      onLine: (line, stream) => {
        options.onLine?.(line, stream);
        const m = READY.exec(line);
        if (m && !settled) {
          settled = true;
          clearTimeout(timer);
          const drain = options.drainTimeoutMs ?? 10_000;
          resolve({ url: m[1]!, child, stop: () => child.stop({ signal: 'SIGTERM', timeoutMs: drain + 5_000 }) });
        }
      },
    });
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      void child.stop({ signal: 'SIGKILL' });
      reject(new Error(`the runner did not get ready within ${options.readyTimeoutMs ?? 30_000} ms:\n${child.tail()}`));
    }, options.readyTimeoutMs ?? 30_000);
    void child.exited.then(({ code, signal }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`the runner exited (${signal ?? `code ${code}`}) before it was ready:\n${child.tail()}`));
    });
  });
}
