import { createHmac, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync, WriteStream } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueClient } from '@azure/storage-queue';
import { RunningMailStub, startMailStub } from '../../local/mail-stub/server';
import { RunnerProcess, RunnerProcessOptions, startRunnerProcess } from '../../local/runner/process';
import { findProjectRoot } from '../../local/stack';
import {
  RunningSiexSimulator,
  SIMULATOR_DEFAULT_CREDENTIALS,
  startSiexSimulator,
} from '../../local/siex-simulator/server';
import { EXPORT_QUEUE, WEBHOOK_QUEUE } from '../../shared/store/queues';
import { WatchStore } from '../../shared/export/job-watch';
import { storageConnection, storageSettings } from '../support/stack-env';
import { TEST_MAX_BACKDATE_DAYS } from './dataset';
import { testTables } from './storage';

/**
 * A private export pipeline for the fault tests, beside the shared stack and on the same Azurite:
 *
 * - its own SIEX simulator and e-mail stub, in this process, so outages, latency and resets touch no other test file;
 * - runners of its own (`startRunnerProcess`, the same compiled app and test timings as the shared one), whose queue
 *   traffic goes through a proxy that renames the app's queues (`export-jobs` → `export-jobs-<tag>`,
 *   `webhook-deliveries` → `webhook-deliveries-<tag>`, their poison queues likewise: `taggedQueue`) and signs each
 *   request again with the account key. Only runners of the same tag read a job or a delivery queued through them:
 *   the shared runner never takes it, so a test decides which process works on a job and can kill that one;
 * - the proxy keeps every lease a runner took (message id and pop receipt), so after a runner is SIGKILLed the test
 *   can end the lease at once (`expireLease`), as the lease's 10 minutes running out would: the message is then
 *   redelivered, dequeue count 2, to the next runner of that tag.
 *
 * Tables are not proxied: the private runners, the shared runner and the test read and write the same ones.
 */

const root = findProjectRoot(__dirname);

/** The Azurite development account's well-known key is in the connection string; parsed, not hard-coded. */
function parseConnection(conn: string): { account: string; key: Buffer; queueEndpoint: URL } {
  const parts = new Map(
    conn
      .split(';')
      .filter(Boolean)
      .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const),
  );
  return {
    account: parts.get('AccountName')!,
    key: Buffer.from(parts.get('AccountKey')!, 'base64'),
    queueEndpoint: new URL(parts.get('QueueEndpoint')!),
  };
}

/** Shared Key signature of a queue request (the storage SDK's StorageSharedKeyCredentialPolicy, written out). */
function sign(account: string, key: Buffer, method: string, url: URL, headers: http.IncomingHttpHeaders): string {
  const h = (name: string) => {
    const v = headers[name];
    const value = Array.isArray(v) ? v.join(',') : (v ?? '');
    return name === 'content-length' && value === '0' ? '' : value;
  };
  const standard = [
    'content-language',
    'content-encoding',
    'content-length',
    'content-md5',
    'content-type',
    'date',
    'if-modified-since',
    'if-match',
    'if-none-match',
    'if-unmodified-since',
    'range',
  ];
  const msHeaders = Object.keys(headers)
    .filter((n) => n.startsWith('x-ms-'))
    .sort()
    .map((n) => `${n}:${h(n).trimStart()}\n`)
    .join('');
  const queries = url.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const i = pair.indexOf('=');
      return [(i < 0 ? pair : pair.slice(0, i)).toLowerCase(), i < 0 ? '' : pair.slice(i + 1)] as const;
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `\n${k}:${decodeURIComponent(v)}`)
    .join('');
  const stringToSign =
    [method.toUpperCase(), ...standard.map(h)].join('\n') + '\n' + msHeaders + `/${account}${url.pathname}` + queries;
  return `SharedKey ${account}:${createHmac('sha256', key).update(stringToSign, 'utf8').digest('base64')}`;
}

interface Lease {
  queue: string;
  messageId: string;
  popReceipt: string;
  dequeueCount: number;
  /** The decoded queue message (base64 JSON, as the app sends it). */
  content: unknown;
}

interface QueueProxy {
  /** The storage connection string for a runner of this tag: tables direct, queues through the proxy. */
  connectionString: string;
  /** The real name of one of the app's queues for this tag. */
  queueName(appQueue: string): string;
  /** Every message a runner of this tag received, in order. */
  leases: Lease[];
  stop(): Promise<void>;
}

/**
 * A queue of the app as a tag's runners see it: each queue the app sends to is renamed, with its poison queue, so no
 * message of a private runner reaches the shared stack's (nor the reverse); any other name is left as it is.
 */
export function taggedQueue(name: string, tag: string): string {
  const base = [EXPORT_QUEUE, WEBHOOK_QUEUE].find((q) => name === q || name.startsWith(`${q}-`));
  return base ? `${base}-${tag}${name.slice(base.length)}` : name;
}

async function startQueueProxy(tag: string): Promise<QueueProxy> {
  const conn = storageConnection();
  const { account, key, queueEndpoint } = parseConnection(conn);
  const rename = (segment: string) => taggedQueue(segment, tag);
  const leases: Lease[] = [];
  const agent = new http.Agent({ keepAlive: true });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const incoming = new URL(req.url ?? '/', queueEndpoint.origin);
      // Path style: /<account>/<queue>[/messages[/<id>]]
      const segments = incoming.pathname.split('/');
      if (segments.length > 2) segments[2] = rename(segments[2]);
      const target = new URL(`${segments.join('/')}${incoming.search}`, queueEndpoint.origin);
      const headers: http.IncomingHttpHeaders = { ...req.headers, host: target.host };
      headers.authorization = sign(account, key, req.method ?? 'GET', target, headers);
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: `${target.pathname}${target.search}`,
          headers,
          agent,
        },
        (up) => {
          const body: Buffer[] = [];
          up.on('data', (c: Buffer) => body.push(c));
          up.on('end', () => {
            const text = Buffer.concat(body);
            record(req.method ?? 'GET', target, up, text.toString('utf8'));
            res.writeHead(up.statusCode ?? 502, up.headers);
            res.end(text);
          });
        },
      );
      upstream.on('error', (e) => {
        res.writeHead(502);
        res.end(e.message);
      });
      upstream.end(Buffer.concat(chunks));
    });
  });

  function record(method: string, url: URL, up: http.IncomingMessage, text: string): void {
    const [, , queue, messages, messageId] = url.pathname.split('/');
    if (messages !== 'messages' || (up.statusCode ?? 0) >= 300) return;
    if (method === 'GET' && url.searchParams.get('peekonly') !== 'true') {
      for (const m of text.matchAll(/<QueueMessage>([\s\S]*?)<\/QueueMessage>/g)) {
        const field = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(m[1])?.[1] ?? '';
        let content: unknown;
        try {
          content = JSON.parse(Buffer.from(field('MessageText'), 'base64').toString('utf8'));
        } catch {
          content = field('MessageText');
        }
        leases.push({
          queue,
          messageId: field('MessageId'),
          popReceipt: field('PopReceipt'),
          dequeueCount: Number(field('DequeueCount')),
          content,
        });
      }
    } else if (method === 'PUT' && messageId) {
      // A lease renewal or a failed invocation's new visibility: the pop receipt changes.
      const receipt = up.headers['x-ms-popreceipt'];
      const lease = [...leases].reverse().find((l) => l.messageId === messageId);
      if (lease && typeof receipt === 'string') lease.popReceipt = receipt;
    }
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const connectionString = conn.replace(/QueueEndpoint=[^;]+/, `QueueEndpoint=http://127.0.0.1:${port}/${account}`);
  return {
    connectionString,
    queueName: (q) => rename(q),
    leases,
    stop: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** host.json with the test timings of the shared stack (a failed delivery comes back after 1 s; quick polling). */
function testHostJson(): string {
  const host = JSON.parse(readFileSync(join(root, 'host.json'), 'utf8'));
  host.extensions.queues = {
    ...host.extensions.queues,
    visibilityTimeout: '00:00:01',
    maxPollingInterval: '00:00:00.200',
  };
  const file = join(tmpdir(), `siex-export-host-${process.pid}-${randomBytes(3).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(host, null, 2));
  return file;
}

/** Runner flags a test may add: its log's detail, the dataset whose keys it hides, where its telemetry goes. */
type RunnerFlags = Pick<RunnerProcessOptions, 'verbose' | 'dataset' | 'telemetry'>;

export interface PrivateRunner extends RunnerProcess {
  tag: string;
  /** Everything the runner printed. */
  lines: string[];
}

export interface PrivatePipeline {
  siex: RunningSiexSimulator;
  mail: RunningMailStub;
  /** Starts a runner reading the queues of `tag` (a proxy per tag, started on first use). */
  runner(tag: string): Promise<PrivateRunner>;
  proxy(tag: string): QueueProxy;
  /** A client of the real (renamed) queue, e.g. to put a message on a tag's poison queue. */
  queue(tag: string, appQueue: string): QueueClient;
  /** Ends a lease taken by a runner now gone: the message is visible again at once, as after its time-out. */
  expireLease(lease: Lease): Promise<void>;
  /** The watch list (and job leases) of the runners of a tag: they queue through their own proxy. */
  watch(tag: string): WatchStore;
  /** Ends the job lease a runner now gone held, as its 2 minutes without a heartbeat running out would. */
  expireJobLease(tag: string, jobId: number): Promise<void>;
  /** Starts a runner reading the queues of `tag` with some settings (and runner flags) of its own. */
  runnerWith(tag: string, env: Record<string, string>, flags?: RunnerFlags): Promise<PrivateRunner>;
  stop(): Promise<void>;
}

export async function startPrivatePipeline(label: string): Promise<PrivatePipeline> {
  const siex = await startSiexSimulator({ knobs: { processingMs: 100 }, log: () => undefined });
  const mail = await startMailStub();
  const hostJson = testHostJson();
  const proxies = new Map<string, QueueProxy>();
  const runners: PrivateRunner[] = [];
  const logDir = join(root, '.local/logs');
  mkdirSync(logDir, { recursive: true });
  const log: WriteStream = createWriteStream(join(logDir, `jest-${label}.log`));

  async function proxyOf(tag: string): Promise<QueueProxy> {
    let p = proxies.get(tag);
    if (!p) {
      p = await startQueueProxy(tag);
      proxies.set(tag, p);
    }
    return p;
  }

  async function startOne(
    tag: string,
    overrides: Record<string, string>,
    flags: RunnerFlags = {},
  ): Promise<PrivateRunner> {
    const proxy = await proxyOf(tag);
    const lines: string[] = [];
    const n = runners.length + 1;
    const started = await startRunnerProcess({
      ...flags,
      projectRoot: root,
      hostJson,
      env: {
        ...process.env,
        // The queues through the tag's proxy; the tables of every data account, as the shared stack's runner.
        ...storageSettings((connection, account) => (account === 0 ? proxy.connectionString : connection)),
        AUTH_MODE: 'local',
        RATE_LIMIT_PER_MINUTE: '100000',
        MAX_BACKDATE_DAYS: String(TEST_MAX_BACKDATE_DAYS),
        REFERENCE_CACHE_SECONDS: '0',
        SIEX_RETRY_BASE_MS: '20',
        SIEX_TIMEOUT_MS: '3000',
        SIEX_BASE_URL: siex.url,
        SIEX_USERNAME: SIMULATOR_DEFAULT_CREDENTIALS.username,
        SIEX_PASSWORD: SIMULATOR_DEFAULT_CREDENTIALS.password,
        EMAIL_CONNECTION_STRING: mail.connectionString,
        EMAIL_ENDPOINT: '',
        ...overrides,
      },
      onLine: (line) => {
        lines.push(line);
        log.write(`[runner ${n} ${tag}] ${line}\n`);
      },
    });
    const runner = { ...started, tag, lines };
    runners.push(runner);
    return runner;
  }

  const watch = (tag: string) => {
    const url = new QueueClient(proxyConnection(tag), EXPORT_QUEUE).url;
    return new WatchStore(testTables(), () => url);
  };
  const proxyConnection = (tag: string) => {
    const p = proxies.get(tag);
    if (!p) throw new Error(`no runner was started for tag ${tag}`);
    return p.connectionString;
  };

  return {
    siex,
    mail,
    watch,
    async expireJobLease(tag, jobId) {
      const store = watch(tag);
      const row = await store.read(jobId);
      if (row) await store.write(jobId, row.etag, { owner: '', due: 0, tries: row.tries });
    },
    runner: (tag) => startOne(tag, {}),
    runnerWith: (tag, env, flags) => startOne(tag, env, flags),
    proxy: (tag) => {
      const p = proxies.get(tag);
      if (!p) throw new Error(`no runner was started for tag ${tag}`);
      return p;
    },
    queue: (tag, appQueue) => new QueueClient(storageConnection(), taggedQueue(appQueue, tag)),
    async expireLease(lease) {
      await new QueueClient(storageConnection(), lease.queue).updateMessage(
        lease.messageId,
        lease.popReceipt,
        undefined,
        0,
      );
    },
    async stop() {
      await Promise.allSettled(runners.map((r) => r.stop()));
      await Promise.allSettled([...proxies.values()].map((p) => p.stop()));
      await Promise.allSettled([siex.stop(), mail.stop()]);
      rmSync(hostJson, { force: true });
      await new Promise<void>((r) => log.end(r));
    },
  };
}
