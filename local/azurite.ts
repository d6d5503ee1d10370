import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedChild, spawnNode } from './runner/child';

/**
 * Azurite (tables, queues and blobs) for the local stack, as three child processes running Azurite 3.35's own entry points
 * (`require('azurite')` is the VS Code extension and fails, docs/architecture.md, "Toolchain notes"). Always `--skipApiVersionCheck`
 * (our SDKs may be newer than the emulator) and `--disableTelemetry`; data on disk under `location`, or
 * `--inMemoryPersistence`. Each child is wrapped so it exits when we do (see WRAPPER).
 */

/** The well-known development account of the storage emulators; not a secret. */
const DEV_ACCOUNT = 'devstoreaccount1';
const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const HOST = '127.0.0.1';

interface AzuriteOptions {
  /** Project root, to find node_modules/azurite. */
  projectRoot: string;
  /** Directory for Azurite's files; ignored with `inMemory`. */
  location?: string;
  inMemory?: boolean;
  /** 0 (default) picks a free port. */
  tablePort?: number;
  queuePort?: number;
  /** Blobs hold the table backups (shared/backup) and, under `func start`, the Functions host's timer leases. */
  blobPort?: number;
  /** Azurite's access log (one line per storage request) to `onLine`; off by default. */
  accessLog?: boolean;
  onLine?: (service: AzuriteService, line: string) => void;
}

type AzuriteKind = 'table' | 'queue' | 'blob';
type AzuriteService = `azurite-${AzuriteKind}`;

export interface Azurite {
  tableEndpoint: string;
  queueEndpoint: string;
  blobEndpoint: string;
  connectionString: string;
  /** Settles when either service exits, whatever the reason (it names which and how). */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** The full connection string: custom ports need it (`UseDevelopmentStorage=true` means the default ports). */
export function devConnectionString(tablePort: number, queuePort: number, blobPort?: number, host = HOST): string {
  return [
    'DefaultEndpointsProtocol=http',
    `AccountName=${DEV_ACCOUNT}`,
    `AccountKey=${DEV_KEY}`,
    `TableEndpoint=http://${host}:${tablePort}/${DEV_ACCOUNT}`,
    `QueueEndpoint=http://${host}:${queuePort}/${DEV_ACCOUNT}`,
    ...(blobPort === undefined ? [] : [`BlobEndpoint=http://${host}:${blobPort}/${DEV_ACCOUNT}`]),
  ].join(';');
}

/**
 * Runs an Azurite entry point and leaves with the parent: when the IPC channel closes (parent gone, even by
 * SIGKILL) it shuts down as on Ctrl-C. Both services close gracefully (databases saved) on SIGINT, which is what
 * `stop()` sends (the table service ignores SIGTERM's graceful path); on SIGINT the channel is dropped so the
 * process can end once Azurite has closed, with a hard exit 5 s later in case something keeps it alive.
 */
const WRAPPER = `
const [entry, ...flags] = process.argv.slice(1);
process.argv = [process.argv[0], entry, ...flags];
let leaving = false;
const leave = () => {
  if (leaving) return;
  leaving = true;
  if (process.connected) process.disconnect();
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGINT', leave);
process.on('disconnect', () => process.emit('SIGINT', 'SIGINT'));
require(entry);
`;

/** A port that was free a moment ago (Azurite reports no port of its own for the table service). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Azurite's own word that it bound the port. An HTTP answer on the port is not enough: the port was free only when
 * `freePort` looked, so another stack's emulator may hold it now, and its answer would pass for ours.
 */
const LISTENING = /^Azurite \w+ service successfully (started|listens) /;

/** Settles when the child says it listens; rejects if it exits first or stays silent for `timeoutMs`. */
function untilListening(child: ManagedChild, listening: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${child.name} did not start listening within ${timeoutMs} ms:\n${child.tail()}`)),
      timeoutMs,
    );
  });
  const died = child.exited.then(() => {
    throw new Error(`${child.name} exited while starting:\n${child.tail()}`);
  });
  return Promise.race([listening, died, silent]).finally(() => clearTimeout(timer));
}

async function startService(
  kind: AzuriteKind,
  requestedPort: number,
  options: AzuriteOptions,
): Promise<{ child: ManagedChild; port: number }> {
  const entry = join(options.projectRoot, `node_modules/azurite/dist/src/${kind}/main.js`);
  const name: AzuriteService = `azurite-${kind}`;
  // A picked port can be taken by someone else before Azurite binds it: try again with another.
  for (let attempt = 1; ; attempt++) {
    const port = requestedPort || (await freePort());
    const flags = [`--${kind}Host`, HOST, `--${kind}Port`, String(port), '--skipApiVersionCheck', '--disableTelemetry'];
    // In memory, Azurite must not get --location (it refuses both); it still wants a writable working directory.
    let cwd = tmpdir();
    if (options.inMemory) flags.push('--inMemoryPersistence');
    else {
      const location = options.location ?? join(options.projectRoot, '.local/azurite');
      mkdirSync(location, { recursive: true });
      flags.push('--location', location);
      cwd = location;
    }
    if (!options.accessLog) flags.push('--silent');
    let said!: () => void;
    const listening = new Promise<void>((resolve) => (said = resolve));
    const child = spawnNode(name, ['-e', WRAPPER, entry, ...flags], {
      cwd,
      env: { ...process.env },
      ipc: true,
      onLine: (line) => {
        if (LISTENING.test(line)) said();
        options.onLine?.(name, line);
      },
    });
    try {
      await untilListening(child, listening, 20_000);
      return { child, port };
    } catch (err) {
      await child.stop({ signal: 'SIGKILL' });
      if (!requestedPort && attempt < 3 && /EADDRINUSE/.test(child.tail())) continue;
      throw err;
    }
  }
}

/** Starts the three services and resolves once all accept requests. */
export async function startAzurite(options: AzuriteOptions): Promise<Azurite> {
  const started: ManagedChild[] = [];
  const stopAll = async () => {
    // SIGINT is Azurite's graceful shutdown (databases saved); SIGKILL after 8 s.
    await Promise.all(started.map((c) => c.stop({ signal: 'SIGINT', timeoutMs: 8_000 })));
  };
  // allSettled: if one fails, the other must still be stopped, whenever it finishes starting.
  const [table, queue, blob] = await Promise.allSettled([
    startService('table', options.tablePort ?? 0, options),
    startService('queue', options.queuePort ?? 0, options),
    startService('blob', options.blobPort ?? 0, options),
  ]);
  for (const r of [table, queue, blob]) if (r.status === 'fulfilled') started.push(r.value.child);
  if (table.status === 'rejected' || queue.status === 'rejected' || blob.status === 'rejected') {
    await stopAll();
    throw [table, queue, blob].find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason;
  }
  return {
    tableEndpoint: `http://${HOST}:${table.value.port}/${DEV_ACCOUNT}`,
    queueEndpoint: `http://${HOST}:${queue.value.port}/${DEV_ACCOUNT}`,
    blobEndpoint: `http://${HOST}:${blob.value.port}/${DEV_ACCOUNT}`,
    connectionString: devConnectionString(table.value.port, queue.value.port, blob.value.port),
    exited: Promise.race(
      started.map((c) =>
        c.exited.then(({ code, signal }) => `${c.name} exited (${signal ?? `code ${code}`})\n${c.tail(20)}`),
      ),
    ),
    stop: stopAll,
  };
}
