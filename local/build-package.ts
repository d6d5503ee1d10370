import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, BuildOptions, Plugin } from 'esbuild';
import { findProjectRoot } from './stack';

/**
 * The deployment package: exactly what Azure runs, in `dist/deploy/`.
 *
 * - `main.js`: the app's start-up (`functions/index.ts`): @azure/functions and the registration of every function by
 *   its address, nothing else, so a cold start reads and compiles little.
 * - `app.js`: every handler (`functions/handlers.ts`) and what they import, bundled by esbuild into one CommonJS file
 *   that `main.js` requires on the first invocation (one file instead of ~200 modules resolved one by one; zod from
 *   its ES modules, so what the code does not use is left out). Within it, each function's modules start on that
 *   function's first call. Why two CommonJS bundles rather than ES module chunks: docs/architecture.md, "Cold start".
 * - `app.js.<arch>-v8-<version>.cache`: V8's code cache of app.js, made by the Node that runs the build, so a fresh
 *   instance on the same V8 loads app.js without compiling it (writeAppCodeCache).
 * - The storage SDKs are in `app.js` (BUNDLED_SDKS); the other Azure SDKs and undici stay outside the bundles, as
 *   production dependencies. The code loads each on first use (`shared/store/azure-sdk.ts`,
 *   `shared/http-client/client-certificate.ts`), so registering the functions pays for none. `@azure/functions-core`
 *   is the host's own module.
 * - `host.json`, and a `package.json` whose `main` is the bundle and whose dependencies are those packages only.
 *
 * `npm test` and `npm start` run this same bundle (the repository's `package.json` `main` points at it; the SDKs are
 * then found in the repository's node_modules). `npm run build` also installs the production dependencies into the
 * package, at the versions of the repository's lock file, so the folder can be zipped and deployed as it is.
 */
const DEPLOY_DIR = 'dist/deploy';

/**
 * The storage SDKs, bundled into app.js and started on first use (shared/store/azure-sdk.ts): nearly every request
 * needs tables, and one bundled file loads about four times faster than the ~300 modules the packages resolve, which
 * the first request after a cold start would pay. Start-up (main.js) never loads them.
 */
const BUNDLED_SDKS = ['@azure/data-tables', '@azure/storage-queue'];

/**
 * Loaded lazily at run time, so kept out of the bundles and shipped in the package's node_modules (blob storage only
 * for the nightly table backup).
 */
export const RUNTIME_DEPENDENCIES = ['@azure/communication-email', '@azure/identity', '@azure/storage-blob', 'undici'];

/** The handlers' bundle, beside main.js: loaded on the first invocation, never at start-up. */
const APP_FILE = 'app.js';

/**
 * `require('./handlers')` of functions/index.ts loads app.js at run time, from the code cache the build ships beside
 * it when the running Node made it (shared/app/code-cache.ts), else by a plain require().
 */
const handlersAsAppBundle = (root: string): Plugin => ({
  name: 'handlers-as-app-bundle',
  setup(b) {
    b.onResolve({ filter: /^\.\/handlers$/ }, () => ({ path: APP_FILE, namespace: 'app-bundle' }));
    b.onLoad({ filter: /.*/, namespace: 'app-bundle' }, () => ({
      contents: [
        "const { requireWithCodeCache } = require('./shared/app/code-cache');",
        `module.exports = requireWithCodeCache(require('node:path').join(__dirname, '${APP_FILE}'));`,
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    }));
  },
});

/**
 * Start-up registers the functions from the record kinds' entries (shared/app/record-kinds.ts), whose loaders require
 * each kind's modules on first use; only app.js ever calls them. So main.js leaves out whatever our code loads lazily
 * (a require() or import() of our own modules): each becomes a module that throws, naming itself, should start-up
 * ever load it, and main.js stays registration alone.
 */
const lazyModulesLeftOut = (root: string): Plugin => ({
  name: 'lazy-modules-left-out',
  setup(b) {
    const lazy = new Set(['require-call', 'dynamic-import']);
    b.onResolve({ filter: /^\.\.?\// }, (args) =>
      args.namespace === 'file' && lazy.has(args.kind) && !/[\\/]node_modules[\\/]/.test(args.importer)
        ? { path: path.relative(root, path.resolve(args.resolveDir, args.path)), namespace: 'left-out' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is app.js's to load, never start-up's`)});`,
      loader: 'js',
    }));
  },
});

/**
 * V8's code cache of app.js, made by the Node that runs the build, in a process of its own with no flags (V8 refuses
 * a cache made under other flags): a fresh instance on that Node loads app.js without compiling it. A build on
 * another Node ships a cache the production Node ignores (docs/architecture.md, "Cold start").
 */
function writeAppCodeCache(root: string, out: string): void {
  const codeCache = path.join(root, 'dist/shared/app/code-cache.js');
  // Every operation's modules loaded first (functions/handlers.ts, loadOperations), so the cache holds their code.
  const script = [
    `require(${JSON.stringify(codeCache)})`,
    `.writeCodeCache(${JSON.stringify(path.join(out, APP_FILE))}, (app) => app.loadOperations())`,
    '.catch((e) => { console.error(e); process.exit(1); })',
  ].join('');
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: out, env, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the code cache of ${APP_FILE} could not be made (exit code ${r.status})`);
}

/**
 * zod's namespaces re-export every locale (`z.locales`, `z.core.locales`: about 45 languages, a sixth of app.js) and a
 * bundle cannot leave out a namespace's members; the first invocation after a cold start would compile them all. The
 * gateway's messages are English, zod's default, which zod imports by itself: the namespaces keep that one.
 */
const englishZodLocales: Plugin = {
  name: 'english-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.resolve(args.resolveDir, '../locales'), namespace: 'zod-english-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.path,
    }));
  },
};

/** The functions host provides this module to the app; it is never installed. */
const HOST_MODULES = ['@azure/functions-core'];

interface RootPackage {
  name: string;
  version: string;
  description?: string;
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
}

/** The bundle and the package's host.json and package.json, in `out` (no dependencies installed yet). */
export async function bundleApp(root: string, out = path.join(root, DEPLOY_DIR)): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    external: [...RUNTIME_DEPENDENCIES, ...BUNDLED_SDKS, ...HOST_MODULES],
    // Whitespace and syntax only: stack traces in the logs keep the code's own names.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'eof',
    logLevel: 'warning',
  } satisfies BuildOptions;
  // What the host loads: registration only. Its one import of the handlers stays a require() of app.js, run on the
  // first invocation.
  await build({
    ...common,
    entryPoints: [path.join(root, 'functions/index.ts')],
    outfile: path.join(out, 'main.js'),
    plugins: [handlersAsAppBundle(root), lazyModulesLeftOut(root)],
  });
  // Every handler and what it imports, in one file, so the functions share one copy of each module (the process's
  // services, caches and error classes); each handler's own modules start on its first call.
  await build({
    ...common,
    entryPoints: [path.join(root, 'functions/handlers.ts')],
    outfile: path.join(out, APP_FILE),
    external: [...RUNTIME_DEPENDENCIES, ...HOST_MODULES],
    plugins: [englishZodLocales],
  });
  writeAppCodeCache(root, out);
  copyFileSync(path.join(root, 'host.json'), path.join(out, 'host.json'));
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as RootPackage;
  const dependencies = Object.fromEntries(RUNTIME_DEPENDENCIES.map((d) => [d, pkg.dependencies[d]]));
  const deployPackage = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    private: true,
    main: 'main.js',
    engines: pkg.engines,
    dependencies,
  };
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(deployPackage, null, 2)}\n`);
  return out;
}

/**
 * Installs the production dependencies into the package, at the versions the repository's lock file pins: the lock
 * is copied beside the package's package.json, and npm prunes it to what that package.json asks for.
 */
export function installRuntimeDependencies(root: string, out: string): void {
  copyFileSync(path.join(root, 'package-lock.json'), path.join(out, 'package-lock.json'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd: out,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error(`npm install in ${out} failed (exit code ${r.status})`);
  pruneDevelopmentFiles(path.join(out, 'node_modules'));
}

/**
 * Source maps, TypeScript (declarations, and sources some packages ship for their maps) and test folders of the
 * installed packages: nothing the running app reads.
 */
const DEVELOPMENT_FILE = /\.(?:map|ts|cts|mts)$/;
const DEVELOPMENT_DIR = new Set(['test', 'tests', '__tests__']);

function pruneDevelopmentFiles(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (DEVELOPMENT_DIR.has(entry.name)) rmSync(full, { recursive: true, force: true });
      else pruneDevelopmentFiles(full);
    } else if (DEVELOPMENT_FILE.test(entry.name)) {
      rmSync(full);
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { package: { type: 'boolean', default: false } } });
  const root = findProjectRoot(__dirname);
  const out = await bundleApp(root);
  if (values.package) installRuntimeDependencies(root, out);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
