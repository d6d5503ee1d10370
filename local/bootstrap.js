#!/usr/bin/env node
// Runs before anything else on a fresh clone, so it may only use Node's own modules: installs dependencies when
// they are missing or older than the lockfile, compiles the TypeScript (only what changed since the last command),
// then hands over to the compiled command.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const { setInterval, clearInterval } = require('node:timers');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

/** A progress line, with the time since this command started: the builds and checks would otherwise say nothing. */
function say(text) {
  console.log(`[${seconds(started).padStart(5)} s] ${text}`);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/**
 * One step of the command, as a process of its own, announced when it starts and timed when it ends. Resolves to
 * whether it passed; steps awaited together run side by side (the machine has more than one core).
 */
function step(name, args) {
  const at = Date.now();
  say(`${name}...`);
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  return new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('exit', (code) => {
      say(`${name}: ${code === 0 ? 'done' : 'FAILED'} (${seconds(at)} s)`);
      resolve(code === 0);
    });
  });
}

/** Stops the command with a failure when a step failed (its own output says why). */
function passed(ok) {
  if (!ok) process.exit(1);
}

function mtime(file) {
  try {
    return fs.statSync(path.join(root, file)).mtimeMs;
  } catch {
    return 0;
  }
}

function ensureDependencies() {
  // npm writes node_modules/.package-lock.json on every install; older than package-lock.json means stale.
  const installed = mtime('node_modules/.package-lock.json');
  if (installed && installed >= mtime('package-lock.json') && installed >= mtime('package.json')) return;
  // `npm ci` installs exactly what the lock says and never rewrites it: a newcomer's first run installs what CI
  // tested and leaves `git status` clean. It refuses a lock out of step with package.json, which is the point.
  say('install dependencies (npm ci)...');
  run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}

/**
 * What test:heavy drives besides Node, each from Debian, installed here as the dependencies are: `npm run
 * test:heavy` on a fresh machine needs nothing done by hand.
 * - The API reference test (test/heavy/api-docs.test.ts) opens /docs in headless Chromium. Browser downloads
 *   (puppeteer's, playwright's) come from CDNs a CI machine cannot reach, so it is Debian's package.
 * - The generated models (test/heavy/client-models.test.ts) compile: C# with mono's C# 6 compiler against Json.NET,
 *   Java with javac against Jackson.
 * Elsewhere (no root, no apt) the tests name what to install.
 */
const HEAVY_TOOLS = [
  {
    name: 'chromium',
    present: [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'],
  },
  { name: 'mono-mcs', present: ['/usr/bin/mcs'] },
  { name: 'libnewtonsoft-json-cil-dev', present: ['/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll'] },
  { name: 'default-jdk-headless', present: ['/usr/bin/javac'] },
  { name: 'libjackson2-databind-java', present: ['/usr/share/java/jackson-databind.jar'] },
];

function ensureHeavyTools() {
  const missing = HEAVY_TOOLS.filter((tool) => !tool.present.some((p) => p && fs.existsSync(p))).map((t) => t.name);
  if (missing.length === 0) return;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.platform !== 'linux' || !asRoot || !fs.existsSync('/usr/bin/apt-get')) return;
  say(`install ${missing.join(', ')} (apt-get, for test:heavy)...`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...missing]);
}

// ---------------------------------------------------------------------------------------------------------------
// Build once, reuse: each step below runs only when what it reads changed since it last passed. Its fingerprint (a
// SHA-256 of its input files' paths and contents, and of the tool versions it depends on) is kept in CACHE when it
// passes; the next command with the same fingerprint skips it. Contents, not modification times: a checkout or a
// `touch` that changes no byte costs nothing, and a file edited back and forth is seen. Nothing here is tracked by
// git, and a fresh clone, with no CACHE, runs every step.

/** Where the fingerprints and tsc's incremental build information live: outside the tracked tree. */
const CACHE = path.join(root, 'node_modules/.cache/siex-gateway');

/** Every file under these folders and these files (relative to the project), sorted; a missing file is left out. */
function filesOf(entries) {
  const out = [];
  const walk = (rel) => {
    let stat;
    try {
      stat = fs.statSync(path.join(root, rel));
    } catch {
      return;
    }
    if (!stat.isDirectory()) return void out.push(rel);
    for (const name of fs.readdirSync(path.join(root, rel))) walk(path.posix.join(rel, name));
  };
  entries.forEach(walk);
  return [...new Set(out)].sort();
}

/**
 * Every file git would see (tracked, or new and not ignored): what the checks read (eslint, prettier, the import
 * rules, knip). Undefined without git (an unpacked archive): the checks then always run.
 */
function projectFiles() {
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0 || r.error) return undefined;
  return [...new Set(r.stdout.split('\0').filter(Boolean))].sort();
}

/** The fingerprint of these files' paths and contents, and of `extra` (versions, flags). */
function fingerprint(files, extra = []) {
  const hash = crypto.createHash('sha256');
  for (const value of extra) hash.update(`${value}\0`);
  for (const rel of files) {
    hash.update(`${rel}\0`);
    try {
      hash.update(fs.readFileSync(path.join(root, rel)));
    } catch {
      hash.update('\0missing');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (name) => path.join(CACHE, `${name}.sha256`);

/**
 * Runs `work` (a promise-returning step) unless the step passed before with this same fingerprint; `fresh()` may
 * veto the skip (an output gone). Resolves to whether it passed. The fingerprint is taken before the step runs, so a
 * file saved while it runs makes the next command run it again.
 */
async function unlessUnchanged(name, print, fresh, work) {
  const file = stampFile(name);
  let before;
  try {
    before = fs.readFileSync(file, 'utf8');
  } catch {
    before = undefined;
  }
  if (print !== undefined && before === print && fresh()) {
    say(`${name}: unchanged since it last passed, skipped`);
    return true;
  }
  fs.rmSync(file, { force: true });
  const ok = await work();
  if (ok && print !== undefined) {
    fs.mkdirSync(CACHE, { recursive: true });
    fs.writeFileSync(file, print);
  }
  return ok;
}

/** The versions a step's result depends on beyond its files: the installed packages (tsc, eslint, esbuild...). */
const installed = () => fingerprint(['node_modules/.package-lock.json']);

const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const compiled = (file) => path.join(root, 'dist/local', file);

/** The folders tsconfig.json compiles to dist/ (its `include`), and what else the build reads. */
const SOURCE_DIRS = ['functions', 'shared', 'local', 'bench'];
const BUILD_INPUTS = [...SOURCE_DIRS, 'tsconfig.json'];

/** The file tsc writes for a source: `x.ts` to `dist/x.js` (declarations compile to nothing). */
function outputOf(rel) {
  if (!rel.endsWith('.ts') || rel.endsWith('.d.ts')) return undefined;
  return path.join('dist', rel.replace(/\.ts$/, '.js'));
}

/** Whether dist/ holds a compiled file for every source (somebody may have deleted dist/ or part of it). */
function distComplete(sources) {
  return sources.every((rel) => {
    const out = outputOf(rel);
    return out === undefined || fs.existsSync(path.join(root, out));
  });
}

/**
 * tsc never deletes: a file renamed or removed would stay in dist/ and still load. A function would keep its routes,
 * and a module that became a folder (shared/http/contracts.ts → contracts/index.ts) would shadow the folder, since
 * require tries `contracts.js` first. So every compiled file whose source is gone is deleted (with its map), and
 * folders left empty.
 */
function pruneOrphans() {
  const prune = (rel) => {
    const full = path.join(root, 'dist', rel);
    let entries;
    try {
      entries = fs.readdirSync(full, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) {
        prune(child);
        continue;
      }
      // x.js and x.js.map come from x.ts; anything else (a JSON file a module imports) is copied as it is.
      const source = /\.js(\.map)?$/.test(child) ? child.replace(/\.js(\.map)?$/, '.ts') : child;
      if (!fs.existsSync(path.join(root, source))) fs.rmSync(path.join(full, e.name));
    }
    if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
  };
  SOURCE_DIRS.forEach(prune);
}

/**
 * What ships and what runs it (tsconfig.json), compiled to dist/. Incremental: tsc keeps what it learnt of the
 * program in CACHE and rechecks and rewrites only what an edit reaches. Its build information describes the files it
 * wrote, so it is dropped when dist/ lacks one of them, and tsc then writes everything again.
 */
function build() {
  const sources = filesOf(SOURCE_DIRS);
  const info = path.join(CACHE, 'tsconfig.tsbuildinfo');
  const complete = distComplete(sources);
  if (!complete) fs.rmSync(info, { force: true });
  const print = fingerprint(filesOf(BUILD_INPUTS), [installed()]);
  return unlessUnchanged(
    'build',
    print,
    () => complete,
    async () => {
      fs.mkdirSync(CACHE, { recursive: true });
      const ok = await step('build: tsc -p tsconfig.json', [
        tsc,
        '-p',
        path.join(root, 'tsconfig.json'),
        '--incremental',
        '--tsBuildInfoFile',
        info,
      ]);
      pruneOrphans();
      return ok;
    },
  );
}

/**
 * The tests' own project (jest types, looser indexing) is type-checked only: the tests run from their sources, so
 * nothing of it needs writing to dist/ but the fixture apps the runner loads (local/build-fixtures.ts). It writes
 * nothing, so it runs beside the build of dist/ and the tests; incremental, as the build is.
 */
function checkTestTypes() {
  // What the tests import reaches beyond their folder (the TypeScript client's sources, for one): every file git sees.
  const files = projectFiles() ?? filesOf([...BUILD_INPUTS, 'test', 'clients', 'tsconfig.test.json']);
  const print = fingerprint(files, [installed()]);
  return unlessUnchanged(
    'types',
    print,
    () => true,
    () => {
      fs.mkdirSync(CACHE, { recursive: true });
      return step('types: tsc -p tsconfig.test.json --noEmit', [
        tsc,
        '-p',
        path.join(root, 'tsconfig.test.json'),
        '--noEmit',
        '--incremental',
        '--tsBuildInfoFile',
        path.join(CACHE, 'tsconfig.test.tsbuildinfo'),
      ]);
    },
  );
}

/**
 * Lint, format and import rules (local/check.ts): they read the sources only, so they run beside the other steps.
 * They read every file git sees, so they are skipped only when none of those changed.
 */
function check() {
  const files = projectFiles();
  const print = files && fingerprint(files, [installed()]);
  return unlessUnchanged(
    'checks',
    print,
    () => true,
    () => step('checks: eslint, prettier, dependency rules, knip', [compiled('check.js')]),
  );
}

/** The fixture apps of the runner's tests (local/build-fixtures.ts), transpiled to dist/test/fixtures. */
function buildFixtures() {
  const print = fingerprint(filesOf(['test/fixtures']), [installed()]);
  return unlessUnchanged(
    'fixtures',
    print,
    () => fs.existsSync(path.join(root, 'dist/test/fixtures')),
    () => step('build: test fixture apps', [compiled('build-fixtures.js')]),
  );
}

/**
 * The deployable bundle (local/build-package.ts): what the tests, `npm start` and the bench run, as Azure does;
 * `npm run build` also installs its production dependencies so dist/deploy can be deployed as it is. It holds V8's
 * code cache made by this Node, so another Node (CI runs 20, then 22) bundles again.
 */
function bundle(withDependencies) {
  const print = fingerprint(filesOf([...BUILD_INPUTS, 'host.json', 'package.json']), [
    installed(),
    process.version,
    process.arch,
    withDependencies ? 'with dependencies' : 'bundle only',
  ]);
  return unlessUnchanged(
    'bundle',
    print,
    () => fs.existsSync(path.join(root, 'dist/deploy/main.js')),
    () => step('bundle: dist/deploy', [compiled('build-package.js'), ...(withDependencies ? ['--package'] : [])]),
  );
}

/** Jest, as a process of its own, with `env` added to this one's; resolves to its exit code. */
function jest(config, args, env = {}) {
  const bin = path.join(root, 'node_modules/jest/bin/jest.js');
  const settings = Object.entries(env).map(([name, value]) => ` ${name}=${value}`);
  say(`jest${settings.join('')}...`);
  const child = spawn(process.execPath, [bin, ...(config ? ['-c', config] : []), ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? 128 + (os.constants.signals[signal] ?? 0)));
  });
}

/**
 * `npm test`: the build, the fixture apps and the bundle, which the tests run, beside the test project's type check
 * and the static checks (they only read); then jest, once all have passed. Jest does not share the two cores with
 * tsc and ESLint: under that load the end-to-end files' first minutes ran into their time-outs.
 */
async function test(command, rest) {
  const testTypes = checkTestTypes();
  const compiledDist = build();
  // The checks run from dist/local/check.js, so they start once it is built.
  const checked =
    command === 'test' && rest.length === 0 ? compiledDist.then((ok) => ok && check()) : Promise.resolve(true);
  const built = (await compiledDist) && (await buildFixtures()) && (await bundle(false));
  passed((await Promise.all([testTypes, checked])).every(Boolean) && built);
  if (command !== 'test:heavy') process.exit(await jest(null, rest));
  ensureHeavyTools();
  const heavy = await jest('jest.heavy.config.js', rest);
  if (rest.length > 0) process.exit(heavy);
  // Issue 37: the integration and end-to-end suites once more, on two data accounts (test/support/global-setup.ts), so
  // that code or a test finding a farm's rows in the first account by chance fails. Only on a whole run (files named
  // are heavy ones), and after a failed heavy pass too: CI then reports both.
  const twoAccounts = await jest(null, ['test/integration', 'test/e2e'], { TEST_STORAGE_ACCOUNTS: '2' });
  process.exit(heavy !== 0 ? heavy : twoAccounts);
}

async function main(command, rest) {
  ensureDependencies();
  // The pure tests need no compile step, no bundle and no local stack: jest transpiles what they import. All of them
  // run in groups of files (jest.unit.config.js); files named (anything that is not an option) run each on its own.
  if (command === 'test:unit') {
    const named = rest.some((arg) => !arg.startsWith('-'));
    process.exit(await jest(named ? 'jest.unit-files.config.js' : 'jest.unit.config.js', rest));
  }
  if (command === 'test' || command === 'test:heavy') return test(command, rest);
  passed(await build());
  if (command === 'check') process.exit((await check()) ? 0 : 1);
  if (['build', 'start', 'start:func', 'bench'].includes(command)) passed(await bundle(command === 'build'));
  if (command === 'build') process.exit(0);
  runCommand(command, rest);
}

function runCommand(command, rest) {
  const target = {
    start: 'start',
    'start:func': 'start-func',
    admin: 'admin',
    bench: '../bench/run',
    openapi: 'write-openapi',
    'client-models': 'client-models',
    smoke: 'smoke',
    'test:stress': 'stress',
  }[command];
  if (!target) {
    console.error(
      `usage: bootstrap.js build|check|test|test:unit|test:heavy|test:stress|start|start:func|admin|bench|openapi|client-models|smoke [args]`,
    );
    process.exit(2);
  }
  // The command runs as its own process (so it is the main module) in this terminal's process group: Ctrl-C reaches it
  // directly, so this process ignores SIGINT rather than sending a second one. A SIGTERM is sent to this process alone
  // (npm passes on its own, a process manager stops the process it started): it is passed on, so `npm start` stopped
  // that way still stops Azurite, the simulators and the runner instead of leaving them running.
  const script = path.join(root, 'dist/local', `${target}.js`);
  const child = spawn(process.execPath, [script, ...rest], { cwd: root, stdio: 'inherit' });
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  // npm passes a SIGTERM on to the `sh -c` it runs the script with. bash execs the script's one command, so the signal
  // lands here; dash (Debian's sh) forks it instead, dies of the signal and leaves this process to init. The parent
  // changing is then the SIGTERM this process never got (test/heavy/npm-start-stop.test.ts kills npm under both).
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    child.kill('SIGTERM');
  }, 200);
  orphaned.unref();
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
}

module.exports = { runCommand };

if (require.main === module) {
  const [command, ...rest] = process.argv.slice(2);
  void main(command, rest);
}
