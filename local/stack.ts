import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startAzurite } from './azurite';
import { spawnNode } from './runner/child';
import { startRunnerProcess } from './runner/process';

/**
 * The local stack, one call for `npm start` and for the jest global setup: Azurite, then the support services
 * (SIEX simulator, e-mail stub: added as `ServiceStarter`s), then an optional back-office import (`startServices`,
 * what `npm start -- --services-only` runs), then the Functions runner with the stack's settings (`startStack`). Everything it starts is listed in `services` and stopped by `stop()`, in
 * reverse order (gateway first, so in-flight work can still reach storage).
 */

/** A running local service, listed by `npm start`. */
export interface LocalService {
  name: string;
  url: string;
  stop(): Promise<void>;
}

export interface ServiceContext {
  projectRoot: string;
  storageConnectionString: string;
  inMemory: boolean;
  /** Where on-disk state goes (`--data`), when not in memory. */
  dataDir: string;
  /** Sink for the service's log lines. */
  log(line: string): void;
}

/** A service started before the runner; `env` is merged into the runner's settings (e.g. its base URL). */
export interface ServiceStarter {
  name: string;
  start(context: ServiceContext): Promise<LocalService & { env?: Record<string, string> }>;
}

interface StackOptions {
  /** Project root (default: found from this file). */
  projectRoot?: string;
  /** Gateway port; 0 (default) picks a free one. */
  gatewayPort?: number;
  /** Azurite ports; 0 (default) picks free ones. */
  tablePort?: number;
  queuePort?: number;
  blobPort?: number;
  /** Throwaway storage (default false: on disk under `dataDir`). */
  inMemory?: boolean;
  /** Default `<projectRoot>/.local`; Azurite keeps its files in `<dataDir>/azurite`. */
  dataDir?: string;
  /**
   * Data accounts farms are spread over (STORAGE_ACCOUNTS; default 1): the first is the Azurite above, each other an
   * Azurite of its own on free ports, its files in `<dataDir>/azurite-account-<n>`.
   */
  accounts?: number;
  /** A back-office dataset imported with `node dist/local/admin.js import <file>` before the runner starts. */
  dataset?: string;
  /** A folder of official SIEX catalogues imported (`admin import-catalogues`) before the dataset. */
  catalogues?: string;
  /** Extra settings for the runner and the import; they win over the stack's defaults. */
  env?: Record<string, string>;
  /** Support services to start after Azurite, before the runner. */
  services?: ServiceStarter[];
  runner?: {
    /** Function app directory (default: projectRoot). */
    appRoot?: string;
    main?: string;
    hostJson?: string;
    quiet?: boolean;
    drainTimeoutMs?: number;
    /** The instant the gateway's clock reads at start, ISO 8601 with its offset: a test's day (AUTH_MODE=local). */
    clockStart?: string;
  };
  /** Azurite's per-request access log in `output` (noisy; off by default). */
  azuriteAccessLog?: boolean;
  /** Every line the stack's processes print, tagged with the service name. Default: dropped. */
  output?: (service: string, line: string) => void;
}

/** Azurite and the support services, with the back-office data imported: what the gateway runs against. */
export interface ServicesStack {
  storageConnectionString: string;
  /** The settings the runner was started with (the stack's own, the services', then `options.env`). */
  env: Record<string, string>;
  /** What is running, in start order: `azurite-table`, `azurite-queue`, `azurite-blob`, support services (`gateway`). */
  services: LocalService[];
  /**
   * Settles if a process of the stack ends on its own (crash, killed from outside), with what it said last;
   * never settles once `stop()` has been called. `npm start` stops everything when it does.
   */
  unexpectedExit: Promise<string>;
  stop(): Promise<void>;
}

/** The whole stack: the services and the local Functions runner serving the gateway against them. */
export interface Stack extends ServicesStack {
  gatewayUrl: string;
}

/** The directory of siex-gateway's package.json, from source (`local/`) or compiled (`dist/local/`) code alike. */
export function findProjectRoot(from: string = __dirname): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'siex-gateway') return dir;
      } catch {
        // Not ours; keep looking.
      }
    }
    if (dirname(dir) === dir) throw new Error(`no siex-gateway package.json above ${from}`);
  }
}

/** Runs a back-office command (`node dist/local/admin.js ...`) with the stack's settings; fails with its output. */
async function runAdmin(
  projectRoot: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void = () => undefined,
): Promise<void> {
  const admin = join(projectRoot, 'dist/local/admin.js');
  if (!existsSync(admin)) throw new Error(`cannot run admin ${args[0]}: ${admin} is missing (npm run build)`);
  const child = spawnNode('admin', [admin, ...args], { cwd: projectRoot, env, onLine: log });
  const { code, signal } = await child.exited;
  if (code !== 0) {
    throw new Error(`admin ${args.join(' ')} failed (${signal ?? `exit code ${code}`}):\n${child.tail(100)}`);
  }
}

/**
 * Azurite, the support services and the back-office import, without the gateway: `npm start -- --services-only`, for
 * a Functions host of one's own (`func start`), and the first half of `startStack`.
 */
export async function startServices(options: StackOptions = {}): Promise<ServicesStack> {
  const projectRoot = options.projectRoot ?? findProjectRoot();
  const dataDir = resolve(options.dataDir ?? join(projectRoot, '.local'));
  const output = options.output ?? (() => undefined);
  const inMemory = options.inMemory ?? false;
  const services: LocalService[] = [];
  const stopAll = async () => {
    for (const service of [...services].reverse()) {
      try {
        await service.stop();
      } catch (err) {
        output(service.name, `stop failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  try {
    const azurite = await startAzurite({
      projectRoot,
      inMemory,
      location: join(dataDir, 'azurite'),
      tablePort: options.tablePort,
      queuePort: options.queuePort,
      blobPort: options.blobPort,
      accessLog: options.azuriteAccessLog,
      onLine: output,
    });
    // Azurite runs as one unit; it is listed once per endpoint and stopped once.
    let azuriteStopped: Promise<void> | undefined;
    const stopAzurite = () => (azuriteStopped ??= azurite.stop());
    services.push({ name: 'azurite-table', url: azurite.tableEndpoint, stop: stopAzurite });
    services.push({ name: 'azurite-queue', url: azurite.queueEndpoint, stop: stopAzurite });
    services.push({ name: 'azurite-blob', url: azurite.blobEndpoint, stop: stopAzurite });
    const accounts = [azurite];
    for (let n = 1; n < (options.accounts ?? 1); n++) {
      const account = await startAzurite({
        projectRoot,
        inMemory,
        location: join(dataDir, `azurite-account-${n}`),
        accessLog: options.azuriteAccessLog,
        onLine: (service, line) => output(`${service}@${n}`, line),
      });
      accounts.push(account);
      // Only its tables are the gateway's: farms' rows (shared/store/farm-accounts.ts).
      services.push({ name: `azurite-table@${n}`, url: account.tableEndpoint, stop: () => account.stop() });
    }

    const env: Record<string, string> = {
      AzureWebJobsStorage: azurite.connectionString,
      AUTH_MODE: 'local',
      // Locally the backups go to the same Azurite; in Azure to an immutable account of their own.
      BACKUP_STORAGE: azurite.connectionString,
      ...(accounts.length > 1 ? { STORAGE_ACCOUNTS: accounts.map((a) => a.connectionString).join(',') } : {}),
    };
    for (const starter of options.services ?? []) {
      const service = await starter.start({
        projectRoot,
        storageConnectionString: azurite.connectionString,
        inMemory,
        dataDir,
        log: (line) => output(starter.name, line),
      });
      services.push(service);
      Object.assign(env, service.env ?? {});
    }
    Object.assign(env, options.env ?? {});
    const childEnv = { ...process.env, ...env };

    if (options.catalogues) {
      await runAdmin(projectRoot, ['import-catalogues', options.catalogues], childEnv, (line) => output('admin', line));
    }
    if (options.dataset) {
      if (!existsSync(options.dataset)) throw new Error(`dataset ${options.dataset} not found`);
      await runAdmin(projectRoot, ['import', resolve(options.dataset)], childEnv, (line) => output('admin', line));
    }

    let stopped: Promise<void> | undefined;
    return {
      storageConnectionString: azurite.connectionString,
      env,
      services,
      unexpectedExit: Promise.race(accounts.map((a) => a.exited)).then((reason) =>
        stopped ? new Promise<string>(() => undefined) : reason,
      ),
      stop: () => (stopped ??= stopAll()),
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const projectRoot = options.projectRoot ?? findProjectRoot();
  const output = options.output ?? (() => undefined);
  const support = await startServices({ ...options, projectRoot });
  try {
    const runner = await startRunnerProcess({
      projectRoot,
      appRoot: options.runner?.appRoot,
      port: options.gatewayPort ?? 0,
      main: options.runner?.main,
      hostJson: options.runner?.hostJson,
      dataset: options.dataset && resolve(options.dataset),
      quiet: options.runner?.quiet,
      drainTimeoutMs: options.runner?.drainTimeoutMs,
      clockStart: options.runner?.clockStart,
      env: { ...process.env, ...support.env },
      onLine: (line) => output('gateway', line),
    });
    support.services.push({ name: 'gateway', url: runner.url, stop: () => runner.stop() });

    let stopped = false;
    const runnerExit = runner.child.exited.then(
      ({ code, signal }) => `gateway exited (${signal ?? `code ${code}`})\n${runner.child.tail(20)}`,
    );
    const unexpectedExit = Promise.race([support.unexpectedExit, runnerExit]).then((reason) =>
      stopped ? new Promise<string>(() => undefined) : reason,
    );
    return {
      ...support,
      gatewayUrl: runner.url,
      unexpectedExit,
      stop: () => {
        stopped = true;
        return support.stop();
      },
    };
  } catch (err) {
    await support.stop();
    throw err;
  }
}
