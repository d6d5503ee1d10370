import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * V8's compiled code for a CommonJS bundle, made when the package is built and shipped beside it, so that a fresh
 * instance (whose Node compile cache, shared/app/compile-cache.ts, starts empty) loads the bundle without compiling
 * it (docs/architecture.md, "Cold start").
 *
 * V8 accepts a code cache only from its own version and flags: the file's name carries the CPU architecture and the
 * V8 version that made it, so another Node finds no cache and loads the bundle with a plain require(). The version is
 * V8's own (major.minor.build.patch), which is what V8 checks: Node releases that embed the same V8 (most of a Node
 * line's patch releases) share the cache. V8 checks the rest itself (source, flags, integrity) and, when it refuses
 * the cache, compiles from source: the same module, only slower, and nothing to report.
 */
export function codeCacheFile(bundle: string): string {
  const v8 = process.versions.v8.replace(/-.*$/, '');
  return `${bundle}.${process.arch}-v8-${v8}.cache`;
}

function compile(bundle: string, cachedData?: Buffer): vm.Script {
  return new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Runs the compiled wrapper as require() runs a CommonJS file, and registers it in require.cache as require() would,
 * so the process holds one copy of the bundle whichever way it was loaded.
 */
function run(script: vm.Script, bundle: string): Module {
  const loaded = new Module(bundle, module);
  loaded.filename = bundle;
  const requireFromBundle = createRequire(bundle);
  loaded.paths = requireFromBundle.resolve.paths('x') ?? [];
  require.cache[bundle] = loaded;
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(loaded.exports, loaded.exports, requireFromBundle, loaded, bundle, path.dirname(bundle));
  loaded.loaded = true;
  return loaded;
}

/** The bundle's exports: from its shipped code cache when this Node has one, else by require(). */
export function requireWithCodeCache(bundle: string): unknown {
  const cached = require.cache[bundle];
  if (cached) return cached.exports;
  const cachedData = readIfPresent(codeCacheFile(bundle));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- no cache for this Node: load it as usual
  if (!cachedData) return require(bundle) as unknown;
  return run(compile(bundle, cachedData), bundle).exports;
}

/** Whether V8 accepts the bundle's shipped code cache (the package test asks it of the Node that built the package). */
export function codeCacheAccepted(bundle: string): boolean {
  const cachedData = readIfPresent(codeCacheFile(bundle));
  return cachedData !== undefined && !compile(bundle, cachedData).cachedDataRejected;
}

/**
 * Writes the bundle's code cache for this Node. The bundle's top level runs first, then `exercise` with its exports
 * (the build loads every operation's modules with it), so the cache also holds the code these compiled: what a first
 * request would otherwise compile. What neither runs (a handler's call itself) is compiled when first called. Run in
 * a process of its own: the bundle's modules must not stay in the build's.
 */
export async function writeCodeCache(bundle: string, exercise: (exports: unknown) => Promise<void>): Promise<string> {
  const script = compile(bundle);
  await exercise(run(script, bundle).exports);
  const file = codeCacheFile(bundle);
  writeFileSync(file, script.createCachedData());
  return file;
}
