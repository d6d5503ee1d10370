import { DateTime } from 'luxon';
import { ZONE } from '../../shared/domain/dates';
import { LOCAL_WEBHOOK_SIGNING_KEY } from '../../local/webhook-receiver/server';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { checkAuthSettings } from '../../shared/config/auth-settings';
import { parseSettings } from '../../shared/config/config';
import { parseStartArgs, portProblem } from '../../local/start';
import { CORE_TOOLS_MISSING } from '../../local/start-func';
import { findProjectRoot } from '../../local/stack';

/**
 * `npm start -- --services-only` as a developer runs it for `func start` (issue 26 item 7): the services on the ports
 * given, the settings file they need, and a port in use named, never replaced.
 */

const root = findProjectRoot(__dirname);
const start = join(root, 'dist/local/start.js');

/** Which setting must carry each service's address for `func start` to reach it. */
const SETTING_OF_SERVICE: Record<string, string> = {
  'azurite-table': 'AzureWebJobsStorage',
  'azurite-queue': 'AzureWebJobsStorage',
  'azurite-blob': 'AzureWebJobsStorage',
  'siex-simulator': 'SIEX_BASE_URL',
  'mail-stub': 'EMAIL_CONNECTION_STRING',
};

/** Which port flag each service is started on (the key of parseStartArgs().ports). */
const PORT_OF_SERVICE: Record<string, 'table' | 'queue' | 'blob' | 'siex' | 'mail' | 'webhook'> = {
  'azurite-table': 'table',
  'azurite-queue': 'queue',
  'azurite-blob': 'blob',
  'siex-simulator': 'siex',
  'mail-stub': 'mail',
  'webhook-receiver': 'webhook',
};

/** The receiver the gateway calls is reached through the clients' webhooks in the data imported, not a setting. */
const CALLED_BY_DATA = ['webhook-receiver'];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function holdPort(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('npm start -- --services-only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'services-only-'));
  const settingsFile = join(dir, 'local.settings.json');
  let child: ChildProcess | undefined;
  const started = new Map<string, string>();

  beforeAll(async () => {
    const ports = await Promise.all([1, 2, 3, 4, 5, 6].map(() => freePort()));
    const portFlags = ['--table-port', '--queue-port', '--blob-port', '--siex-port', '--mail-port', '--webhook-port'];
    const flags = portFlags.flatMap((f, i) => [f, String(ports[i])]);
    child = spawn(process.execPath, [start, '--services-only', '--in-memory', '--settings', settingsFile, ...flags], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        const service = /^(\S+)\s+(http:\/\/\S+)$/.exec(line);
        if (service) started.set(service[1], service[2]);
        if (line.startsWith('Services ready')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`start exited with ${code}:\n${stderr.join('\n')}`)));
    });
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const values = () => (JSON.parse(readFileSync(settingsFile, 'utf8')) as { Values: Record<string, string> }).Values;

  it('starts no gateway, and its settings name every service it started, in the setting the app reads it from', () => {
    expect([...started.keys()].sort()).toEqual([...Object.keys(SETTING_OF_SERVICE), ...CALLED_BY_DATA].sort());
    const settings = values();
    for (const [name, url] of started)
      if (!CALLED_BY_DATA.includes(name)) expect(settings[SETTING_OF_SERVICE[name]]).toContain(url);
  });

  it("points the demo clients' webhooks at the receiver it started, which checks with the app's signing key", () => {
    const campaign = DateTime.now().setZone(ZONE).year;
    const demo = JSON.parse(readFileSync(join(root, '.local', `demo-dataset-${campaign}.json`), 'utf8')) as {
      clients: { id: string; webhook?: string }[];
    };
    const receiver = started.get('webhook-receiver')!;
    expect(demo.clients.map((c) => c.webhook)).toEqual(demo.clients.map((c) => `${receiver}/hooks/${c.id}`));
    expect(values().WEBHOOK_SIGNING_KEY).toBe(LOCAL_WEBHOOK_SIGNING_KEY);
  });

  it("writes settings the function app's settings schema and its start-up check accept", () => {
    const settings = values();
    expect(() => parseSettings(settings)).not.toThrow();
    expect(checkAuthSettings(settings)).toBe('local');
  });

  it('writes local.settings.sample.json, but for the ports it was given', () => {
    const defaults = parseStartArgs([]).ports;
    let written = readFileSync(settingsFile, 'utf8');
    for (const [name, url] of started) {
      const port = new URL(url).port;
      written = written.replaceAll(`127.0.0.1:${port}/`, `127.0.0.1:${defaults[PORT_OF_SERVICE[name]]}/`);
      written = written.replaceAll(`127.0.0.1:${port}"`, `127.0.0.1:${defaults[PORT_OF_SERVICE[name]]}"`);
    }
    expect(written).toBe(readFileSync(join(root, 'local.settings.sample.json'), 'utf8'));
  });

  it('names a port in use in one line and stops, instead of taking another', async () => {
    const held = await holdPort();
    try {
      const port = (held.address() as { port: number }).port;
      const r = spawnSync(process.execPath, [start, '--services-only', '--in-memory', '--mail-port', String(port)], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        `Port ${port} (mail outbox) is in use: stop what holds it (another npm start?) or choose another with --mail-port N.\n`,
      );
      expect(r.stdout).toBe('');
    } finally {
      held.close();
    }
  });
});

describe('the ports npm start needs', () => {
  it('refuses one port given to two services, naming both', async () => {
    const port = await freePort();
    expect(await portProblem({ table: port, mail: port })).toBe(
      `Port ${port} is given to both Azurite tables and mail outbox: choose another with --mail-port N.`,
    );
    expect(await portProblem({ table: port })).toBeUndefined();
  });
});

describe('npm run start:func', () => {
  it('says how to install Core Tools when func is not on PATH', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-func-'));
    try {
      const r = spawnSync(process.execPath, [join(root, 'dist/local/start-func.js')], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PATH: empty },
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`${CORE_TOOLS_MISSING}\n`);
      expect(CORE_TOOLS_MISSING).toContain('npm install -g azure-functions-core-tools@4');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
