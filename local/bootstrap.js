#!/usr/bin/env node
// Runs before anything else on a fresh clone, so it may only use Node's own modules: installs dependencies when
// they are missing or older than the lockfile, compiles the TypeScript, then hands over to the compiled command.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
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
 * The API reference test (test/e2e/api-docs.test.ts) opens /docs in headless Chromium. Browser downloads
 * (puppeteer's, playwright's) come from CDNs a CI machine cannot reach, so it is Debian's package, installed here
 * as the dependencies are: `npm test` on a fresh machine needs nothing done by hand. Elsewhere the test names what
 * to install.
 */
function ensureBrowser() {
  const known = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  if (known.some((p) => p && fs.existsSync(p))) return;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.platform !== 'linux' || !asRoot || !fs.existsSync('/usr/bin/apt-get')) return;
  say('install chromium (apt-get, for the /docs test)...');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', 'chromium']);
}

const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const compiled = (file) => path.join(root, 'dist/local', file);

/** What ships and what runs it (tsconfig.json), compiled to dist/. */
function build() {
  // tsc never deletes: a file renamed or removed would stay in dist/ and still load. A function would keep its routes,
  // and a module that became a folder (shared/http/contracts.ts → contracts/index.ts) would shadow the folder, since
  // require tries `contracts.js` first. Every folder tsconfig.json compiles is emptied; tsc writes them all again.
  for (const dir of ['functions', 'shared', 'local', 'bench'])
    fs.rmSync(path.join(root, 'dist', dir), { recursive: true, force: true });
  return step('build: tsc -p tsconfig.json', [tsc, '-p', path.join(root, 'tsconfig.json')]);
}

/**
 * The tests' own project (jest types, looser indexing) is type-checked only: ts-jest runs the tests from their
 * sources, so nothing of it needs writing to dist/ but the fixture apps the runner loads (local/build-fixtures.ts).
 * It writes nothing, so it runs beside the build of dist/.
 */
function checkTestTypes() {
  return step('types: tsc -p tsconfig.test.json --noEmit', [
    tsc,
    '-p',
    path.join(root, 'tsconfig.test.json'),
    '--noEmit',
  ]);
}

/** Lint, format and import rules (local/check.ts): they read the sources only, so they run beside the other steps. */
function check() {
  return step('checks: eslint, prettier, dependency rules', [compiled('check.js')]);
}

/**
 * The deployable bundle (local/build-package.ts): what the tests, `npm start` and the bench run, as Azure does;
 * `npm run build` also installs its production dependencies so dist/deploy can be deployed as it is.
 */
function bundle(withDependencies) {
  return step('bundle: dist/deploy', [compiled('build-package.js'), ...(withDependencies ? ['--package'] : [])]);
}

function jest(config, args) {
  const bin = path.join(root, 'node_modules/jest/bin/jest.js');
  say('jest...');
  const r = spawnSync(process.execPath, [bin, ...(config ? ['-c', config] : []), ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}

async function main(command, rest) {
  ensureDependencies();
  // The pure tests need no compile step, no bundle and no local stack: ts-jest transpiles what they import.
  if (command === 'test:unit') jest('jest.unit.config.js', rest);
  const testing = command === 'test' || command === 'test:heavy';
  const testTypes = testing ? checkTestTypes() : Promise.resolve(true);
  passed(await build());
  if (command === 'check') passed(await check());
  if (command === 'check') process.exit(0);
  const checked = command === 'test' && rest.length === 0 ? check() : Promise.resolve(true);
  if (testing) passed(await step('build: test fixture apps', [compiled('build-fixtures.js')]));
  if (['build', 'test', 'test:heavy', 'start', 'start:func', 'bench'].includes(command))
    passed(await bundle(command === 'build'));
  passed((await Promise.all([testTypes, checked])).every(Boolean));
  if (command === 'build') process.exit(0);
  if (command === 'test') {
    ensureBrowser();
    jest(null, rest);
  }
  if (command === 'test:heavy') jest('jest.heavy.config.js', rest);
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
  // changing is then the SIGTERM this process never got (test/e2e/npm-start-stop.test.ts kills npm under both).
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
