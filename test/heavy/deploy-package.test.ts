import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleApp, installRuntimeDependencies, RUNTIME_DEPENDENCIES } from '../../local/build-package';
import { findProjectRoot } from '../../local/stack';
import { codeCacheFile } from '../../shared/app/code-cache';
import { contracts } from '../../shared/app/contracts';

/**
 * The package `npm run build` writes is exactly what Azure runs: built here into a folder of its own (dist/deploy is
 * what the running test stack serves), then read file by file and loaded the way the Functions worker loads it.
 */
const ROOT = findProjectRoot(__dirname);
let out: string;

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

beforeAll(async () => {
  out = path.join(mkdtempSync(path.join(tmpdir(), 'siex-package-')), 'deploy');
  await bundleApp(ROOT, out);
  installRuntimeDependencies(ROOT, out);
}, 120_000);
afterAll(() => rmSync(path.dirname(out), { recursive: true, force: true }));

describe('the deployment package', () => {
  it('holds the two bundles, the code cache of app.js, host.json, package.json and production dependencies, nothing else', () => {
    const files = filesUnder(out);
    const own = files.filter((f) => !f.startsWith('node_modules/'));
    expect(own.sort()).toEqual([
      'app.js',
      path.basename(codeCacheFile(path.join(out, 'app.js'))),
      'host.json',
      'main.js',
      'package-lock.json',
      'package.json',
    ]);
    expect(
      files.filter((f) => /(^|\/)(test|tests|__tests__|local|bench)\//.test(f) && !f.startsWith('node_modules/')),
    ).toEqual([]);
    expect(files.filter((f) => /\.(map|ts)$/.test(f))).toEqual([]);
    for (const dep of RUNTIME_DEPENDENCIES) expect(files).toContain(`node_modules/${dep}/package.json`);
    // Dev tooling never ships: the bundle already holds zod, luxon and @azure/functions.
    for (const dev of [
      'jest/package.json',
      'typescript/package.json',
      'azurite/package.json',
      'esbuild/package.json',
      'zod/package.json',
    ]) {
      expect(files).not.toContain(`node_modules/${dev}`);
    }
  });

  it('declares the bundle as main and only the runtime dependencies, on the Node versions we support', () => {
    const pkg = JSON.parse(readFileSync(path.join(out, 'package.json'), 'utf8'));
    const root = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('main.js');
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...RUNTIME_DEPENDENCIES].sort());
    expect(pkg.devDependencies).toBeUndefined();
    expect(pkg.engines).toEqual(root.engines);
    expect(readFileSync(path.join(out, 'host.json'), 'utf8')).toBe(readFileSync(path.join(ROOT, 'host.json'), 'utf8'));
  });

  it('loads as the Functions worker loads it and registers every function, loading no handler and no runtime dependency', () => {
    const probe = path.join(ROOT, 'dist/bench/cold-start-probe.js');
    const loaded = JSON.parse(execFileSync(process.execPath, [probe, out, '--modules'], { encoding: 'utf8' }));
    // one HTTP function per route spelling of every contract, the public OpenAPI document, the unknown routes'
    // catch-all, the two export queues and the webhook delivery queue, the sweeper's timer, the nightly backup's and
    // the SIEX certificate check's
    const http = contracts.reduce((n, c) => n + c.routes.length, 0);
    expect(loaded.functions).toBe(http + 1 + 1 + 3 + 3);
    expect(
      loaded.modules.filter((m: string) => RUNTIME_DEPENDENCIES.some((d) => m.includes(`node_modules/${d}/`))),
    ).toEqual([]);
    // The handlers (app.js) load on the first invocation: start-up reads main.js alone.
    expect(loaded.modules).toEqual([path.join(out, 'main.js')]);
  });

  it('warms up after start-up, never within it: app.js loads once registration is done, with no invocation', () => {
    const probe = path.join(ROOT, 'dist/bench/cold-start-probe.js');
    const loaded = JSON.parse(
      execFileSync(process.execPath, [probe, out, '--modules', '--settle'], { encoding: 'utf8' }),
    );
    expect(loaded.modules).toEqual([path.join(out, 'main.js')]);
    expect(loaded.settled).toEqual([path.join(out, 'main.js'), path.join(out, 'app.js')]);
  });

  it('serves a function from the package: its first invocation loads app.js', async () => {
    const probe = path.join(ROOT, 'dist/bench/cold-start-probe.js');
    const served = JSON.parse(
      execFileSync(process.execPath, [probe, out, '--modules', '--invoke', 'openapi'], { encoding: 'utf8' }),
    );
    expect(served.status).toBe(200);
    expect(served.modules).toContain(path.join(out, 'app.js'));
  });

  describe("app.js's code cache", () => {
    const appJs = () => path.join(out, 'app.js');
    // In a process of its own with no flags, as the Functions worker runs: V8 refuses a cache made under other flags.
    const accepted = (): boolean =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '-p',
            `require(${JSON.stringify(path.join(ROOT, 'dist/shared/app/code-cache.js'))}).codeCacheAccepted(${JSON.stringify(appJs())})`,
          ],
          { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
        ),
      );
    const serveOpenApi = () =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [path.join(ROOT, 'dist/bench/cold-start-probe.js'), out, '--modules', '--invoke', 'openapi'],
          {
            encoding: 'utf8',
          },
        ),
      );
    const kept = () => path.join(path.dirname(out), 'kept.cache');
    beforeEach(() => copyFileSync(codeCacheFile(appJs()), kept()));
    afterEach(() => copyFileSync(kept(), codeCacheFile(appJs())));

    it('is accepted by the Node that built the package', () => {
      expect(accepted()).toBe(true);
    });

    it('when V8 refuses it (corrupted), app.js compiles from source and answers', () => {
      const cache = readFileSync(codeCacheFile(appJs()));
      writeFileSync(
        codeCacheFile(appJs()),
        Buffer.concat([Buffer.alloc(64, 0xff), cache.subarray(64, cache.length >> 1)]),
      );
      expect(accepted()).toBe(false);
      const served = serveOpenApi();
      expect(served.status).toBe(200);
      expect(served.modules).toContain(appJs());
    });

    it("made by another Node (another V8's file name), it is not read: app.js loads by require() and answers", () => {
      renameSync(codeCacheFile(appJs()), `${appJs()}.${process.arch}-v8-0.0.0.0.cache`);
      expect(accepted()).toBe(false);
      const served = serveOpenApi();
      expect(served.status).toBe(200);
      expect(served.modules).toContain(appJs());
      rmSync(`${appJs()}.${process.arch}-v8-0.0.0.0.cache`);
    });
  });
});
