import { join } from 'node:path';
import { spawnNode } from '../runner/child';
import { LocalService, ServiceContext, ServiceStarter } from '../stack';
import { SIMULATOR_DEFAULT_CREDENTIALS } from './server';

/**
 * The SIEX simulator as a child of the local stack (`startStack({ services: [siexSimulatorService()] })`): runs
 * `dist/local/siex-simulator/main.js` with an IPC channel (it exits when the stack's process goes away), waits for its
 * "listening" line, and hands the runner the settings that point the IUWS client at it.
 */

export interface NodeServiceSpec {
  name: string;
  /** Path of the compiled script, relative to the project root. */
  script: string;
  args: string[];
  /** The line that says it is ready; group 1 is its URL. */
  ready: RegExp;
  timeoutMs?: number;
}

/** Spawns a compiled Node service of ours and resolves once it printed its ready line (rejects if it exits first). */
export async function startNodeService(
  context: ServiceContext,
  spec: NodeServiceSpec,
): Promise<LocalService & { lines: string[] }> {
  const lines: string[] = [];
  let onReady: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => (onReady = resolve));
  const child = spawnNode(spec.name, [join(context.projectRoot, spec.script), ...spec.args], {
    cwd: context.projectRoot,
    env: process.env,
    ipc: true,
    onLine: (line) => {
      context.log(line);
      lines.push(line);
      const m = spec.ready.exec(line);
      if (m) onReady(m[1]!);
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      ready,
      child.exited.then(({ code, signal }) => {
        throw new Error(`${spec.name} exited (${signal ?? `code ${code}`}) before it was ready:\n${child.tail()}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${spec.name} not ready within ${spec.timeoutMs ?? 15_000} ms:\n${child.tail()}`)),
          spec.timeoutMs ?? 15_000,
        );
      }),
    ]);
    return { name: spec.name, url, lines, stop: () => child.stop() };
  } catch (e) {
    await child.stop({ signal: 'SIGKILL' });
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

export interface SiexSimulatorServiceOptions {
  /** Default 0: a free port. */
  port?: number;
  processingMs?: number;
  latencyMs?: number;
}

export function siexSimulatorService(options: SiexSimulatorServiceOptions = {}): ServiceStarter {
  return {
    name: 'siex-simulator',
    async start(context) {
      const args = ['--port', String(options.port ?? 0)];
      if (options.processingMs !== undefined) args.push('--processing-ms', String(options.processingMs));
      if (options.latencyMs !== undefined) args.push('--latency-ms', String(options.latencyMs));
      const service = await startNodeService(context, {
        name: 'siex-simulator',
        script: 'dist/local/siex-simulator/main.js',
        args,
        ready: /^SIEX simulator listening on (http:\/\/\S+)$/,
      });
      return {
        name: service.name,
        url: service.url,
        stop: () => service.stop(),
        env: {
          SIEX_BASE_URL: service.url,
          SIEX_USERNAME: SIMULATOR_DEFAULT_CREDENTIALS.username,
          SIEX_PASSWORD: SIMULATOR_DEFAULT_CREDENTIALS.password,
        },
      };
    },
  };
}
