import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { FunctionsCoreHost } from '../../local/functions-core/core-api';
import { RunnerProcess, startRunnerProcess } from '../../local/runner/process';
import {
  buildSimulatorPackage,
  SIMULATOR_HOST_JSON,
  zipPackage,
} from '../../local/siex-simulator/build-function-package';
import { findProjectRoot } from '../../local/stack';
import { parseSettings } from '../../shared/config/config';
import { createIuwsClient } from '../../shared/siex/iuws-client';
import { settledStatus } from '../helpers/iuws-settled';
import { cueDocument, schemaSections, tratamFito } from './iuws-fixtures';

/**
 * The sandbox's SIEX package as deployed (dist/deploy-siex, local/siex-simulator/build-function-package.ts): built into
 * a folder of its own, served by the project's functions runner as the host serves it (its host.json, its routes), and
 * called by the gateway's IUWS client over HTTP; its registrations as the worker sees them (the key on the operator's
 * endpoints); its zip as one-deploy takes it.
 */

// The worker's side of the registrations the bundle makes, read back in the registration test.
const mockHost = new FunctionsCoreHost();
jest.mock('@azure/functions-core', () => mockHost.module, { virtual: true });

const root = findProjectRoot(__dirname);
const dir = mkdtempSync(path.join(tmpdir(), 'siex-simulator-package-'));
const CREDENTIALS = { SIMULATOR_USERNAME: 'siex-sandbox', SIMULATOR_PASSWORD: 'the vault secret' };
let runner: RunnerProcess;

beforeAll(async () => {
  await buildSimulatorPackage(root, dir);
  runner = await startRunnerProcess({
    projectRoot: root,
    appRoot: dir,
    port: 0,
    quiet: true,
    env: { ...process.env, ...CREDENTIALS },
  });
});
afterAll(async () => {
  await runner?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the SIEX simulator package (the sandbox profile)', () => {
  it('is a bundle, the CUE schema, host.json without a route prefix and a package.json with no dependencies', () => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.main).toBe('main.js');
    expect(pkg.dependencies).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(dir, 'host.json'), 'utf8'))).toEqual(SIMULATOR_HOST_JSON);
    expect(readFileSync(path.join(dir, 'cue-schema-3.11.4.json'))).toEqual(
      readFileSync(path.join(root, 'data/siex/cue-schema-3.11.4.json')),
    );
    // Small enough to deploy in seconds: everything it runs is in main.js.
    expect(statSync(path.join(dir, 'main.js')).size).toBeLessThan(2 * 1024 * 1024);
  });

  it("answers the gateway's IUWS client at the app's own address: a treatment submitted and accepted", async () => {
    const client = createIuwsClient(
      parseSettings({
        AzureWebJobsStorage: 'UseDevelopmentStorage=true',
        SIEX_BASE_URL: runner.url,
        SIEX_USERNAME: CREDENTIALS.SIMULATOR_USERNAME,
        SIEX_PASSWORD: CREDENTIALS.SIMULATOR_PASSWORD,
        SIEX_TIMEOUT_MS: '10000',
        SIEX_MAX_ATTEMPTS: '1',
        SIEX_RETRY_BASE_MS: '10',
      }),
      schemaSections(),
    );
    await fetch(`${runner.url}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ processingMs: 0 }),
    });
    const id = await client.submit(cueDocument([tratamFito(8001)]), 'package-1');
    expect(await settledStatus(client, id)).toEqual({
      state: 'done',
      results: [{ externalId: 8001, section: 'TratamFito', ok: true, errors: [] }],
    });
    const stats = (await (await fetch(`${runner.url}/_inspect/stats`)).json()) as { submissions: number };
    expect(stats.submissions).toBe(1);
  });

  it('registers the IUWS door anonymous and the /_control and /_inspect doors behind a function key', () => {
    jest.isolateModules(() => {
      jest.requireActual(path.join(dir, 'main.js'));
    });
    const registered = [...mockHost.functions.values()].map(({ metadata }) => {
      const trigger = Object.values(metadata.bindings).find((b) => b.direction === 'in') as unknown as {
        authLevel: string;
        route: string;
      };
      return { name: metadata.name, route: trigger.route, authLevel: trigger.authLevel };
    });
    expect(registered.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'siex', route: '{*path}', authLevel: 'anonymous' },
      { name: 'siexControl', route: '_control/{*rest}', authLevel: 'function' },
      { name: 'siexInspect', route: '_inspect/{*rest}', authLevel: 'function' },
    ]);
  });

  it('zips to the files of the folder, byte for byte', () => {
    const files = unzipSync(zipPackage(dir));
    expect(Object.keys(files).sort()).toEqual(['cue-schema-3.11.4.json', 'host.json', 'main.js', 'package.json']);
    expect(Buffer.from(files['main.js'])).toEqual(readFileSync(path.join(dir, 'main.js')));
  });
});
