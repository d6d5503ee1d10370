import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { globSync } from 'tinyglobby';
import { FunctionsCoreHost, RegisteredFunction } from '../functions-core/core-api';
import { installCoreModule } from '../functions-core/install';
import { RunnerLogger } from './logger';
import { dynamicImport } from '../dynamic-import';

interface LoadAppOptions {
  /** The function app directory (where package.json lives). */
  root: string;
  /** Overrides package.json `main` (a path or glob relative to `root`). */
  main?: string;
  logger: RunnerLogger;
}

export interface LoadedApp {
  root: string;
  host: FunctionsCoreHost;
  files: string[];
  functions: RegisteredFunction[];
}

function entryPattern(root: string, override?: string): string {
  if (override) return override;
  const file = join(root, 'package.json');
  if (!existsSync(file)) throw new Error(`${file} not found: the function app directory needs a package.json`);
  const main = (JSON.parse(readFileSync(file, 'utf8')) as { main?: unknown }).main;
  if (typeof main !== 'string' || !main.trim()) throw new Error(`${file} has no "main": nothing to load`);
  return main;
}

/**
 * The files the worker loads: package.json `main` (or `override`), a path or a glob, expanded under `root` as the
 * worker's globby does it (tinyglobby has its defaults). Relative to `root`, with `/`, sorted so the load order is
 * stable.
 */
export function entryFiles(root: string, override?: string): { pattern: string; files: string[] } {
  const pattern = entryPattern(root, override);
  return { pattern, files: globSync(pattern, { cwd: root }).sort() };
}

/**
 * Loads the app as the worker does at start-up: provide `@azure/functions-core`, load every file that
 * package.json `main` matches, in order, then run the `appStart` hooks and ask the programming model for its
 * capabilities (which locks `app.setup`). A file that throws while loading stops start-up with its error, so a
 * missing or invalid setting read at load time is reported instead of serving a half-loaded app.
 */
export async function loadApp(options: LoadAppOptions): Promise<LoadedApp> {
  const root = resolve(options.root);
  const { pattern, files } = entryFiles(root, options.main);
  const host = new FunctionsCoreHost((level, category, message) =>
    options.logger.app(level, category, undefined, message),
  );
  installCoreModule(host.module);

  if (files.length === 0) {
    // The host logs this and starts with no functions; do the same so an app without functions still starts.
    options.logger.warn(`no files match "${pattern}" under ${root}: no functions loaded`);
  }
  for (const file of files) {
    const abs = join(root, file);
    try {
      if (extname(abs) === '.mjs') await dynamicImport(pathToFileURL(abs).href);
      // The Functions host loads CommonJS entry points with require(); so does this stand-in for it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      else require(abs);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`Failed to load ${file}: ${reason}`, { cause: err });
    }
  }

  const appStartContext = {
    get hookData() {
      return host.appStartHookData;
    },
    get appHookData() {
      return host.appHookData;
    },
    functionAppDirectory: root,
  };
  for (const hook of [...host.hooks.appStart]) await hook(appStartContext);

  const capabilities = (await host.programmingModel?.getCapabilities?.({})) ?? {};
  if (capabilities.HttpUri) {
    throw new Error('app.setup({ enableHttpStream: true }) is not supported by the local runner');
  }
  host.finishStartup();
  return { root, host, files, functions: [...host.functions.values()] };
}
