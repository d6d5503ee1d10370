/**
 * `kill <pid of npm start>` stops the whole stack, whichever shell npm runs the script with: bash execs the script's
 * command, so npm's SIGTERM reaches local/bootstrap.js; dash (Debian's /bin/sh) forks it and dies of the signal, and
 * bootstrap.js must notice it was left behind. Either way every process of the stack ends and its 7 ports are free.
 *
 * npm runs a package whose `start` script is the repository's, but calls bootstrap.js's command step directly: its
 * install and build steps would rebuild dist/ under the other test files (npm test has built it already).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { findProjectRoot } from '../../local/stack';

const root = findProjectRoot(__dirname);
const PORT_FLAGS = [
  '--port',
  '--table-port',
  '--queue-port',
  '--blob-port',
  '--siex-port',
  '--mail-port',
  '--webhook-port',
];

/** Whether nothing listens on `port` (127.0.0.1): binding it succeeds. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Ports the system hands out now, one per flag. */
async function freePorts(): Promise<number[]> {
  const servers = await Promise.all(
    PORT_FLAGS.map(
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Every process below `pid` (ps lists the whole table; the tree is walked from it). */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const below: number[] = [];
  for (let next = [pid]; next.length > 0;) {
    next = table.filter(([, ppid]) => next.includes(ppid)).map(([child]) => child);
    below.push(...next);
  }
  return below;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A package whose `start` is the repository's script with bootstrap.js's command step called directly. */
function startPackage(dir: string): void {
  const bootstrap = path.join(root, 'local', 'bootstrap.js');
  const script = `node -e "require(process.argv[1]).runCommand('start', process.argv.slice(2))" ${JSON.stringify(bootstrap)}`;
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  // The repository's own start script is this one command, with nothing before it that a shell would fork for.
  expect(scripts.start).toBe('node local/bootstrap.js start');
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'stop-test', private: true, scripts: { start: script } }),
  );
}

/** `npm start` on free ports, once it prints its ready line (another start on a port taken meanwhile is retried). */
async function npmStart(
  dir: string,
  shell: string,
): Promise<{ npm: ChildProcess; ports: number[]; output: () => string }> {
  for (;;) {
    const ports = await freePorts();
    const flags = PORT_FLAGS.flatMap((flag, i) => [flag, String(ports[i])]);
    const npm = spawn('npm', ['start', '--', ...flags, '--in-memory'], {
      cwd: dir,
      env: { ...process.env, npm_config_script_shell: shell, npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    const ready = await new Promise<boolean>((resolve) => {
      const seen = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (/^Gateway ready at /m.test(text)) resolve(true);
      };
      npm.stdout.on('data', seen);
      npm.stderr.on('data', seen);
      npm.once('exit', () => resolve(false));
    });
    if (ready) return { npm, ports, output: () => text };
    if (!/Port \d+ \(.*\) is in use/.test(text)) throw new Error(`npm start failed:\n${text}`);
  }
}

const shells = ['/bin/dash', '/bin/bash'].filter((shell) => fs.existsSync(shell));

it('runs both shells on Linux (Debian and CI have both)', () => {
  if (process.platform === 'linux') expect(shells).toEqual(['/bin/dash', '/bin/bash']);
  else expect(shells.length).toBeGreaterThan(0);
});

describe.each(shells)('npm start with %s as its script shell', (shell) => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-start-stop-'));
    startPackage(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("stops every process of the stack when npm's pid is killed, and frees its 7 ports", async () => {
    const { npm, ports, output } = await npmStart(dir, shell);
    const stack = descendants(npm.pid!);
    // The shell (dash only), bootstrap.js, start.js, Azurite, the SIEX simulator, the mail outbox, the webhook
    // receiver and the gateway, and what they start in turn.
    expect(stack.length).toBeGreaterThanOrEqual(7);
    const exited = new Promise((resolve) => npm.once('exit', resolve));
    process.kill(npm.pid!, 'SIGTERM');
    await exited;
    // Each process ends in its own time after npm: waited for by pid, however long a loaded machine takes.
    for (const pid of stack) while (alive(pid)) await new Promise((r) => setTimeout(r, 100));
    const taken = [];
    for (const port of ports) if (!(await portIsFree(port))) taken.push(port);
    expect({ taken, output: taken.length ? output() : '' }).toEqual({ taken: [], output: '' });
  });
});
