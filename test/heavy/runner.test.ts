import { QueueClient, QueueServiceClient } from '@azure/storage-queue';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { RunnerProcess, RunnerProcessOptions, startRunnerProcess } from '../../local/runner/process';
import { disabledSetting } from '../../local/runner/runner';
import { findProjectRoot, startStack } from '../../local/stack';
import { gatewayUrl, storageConnection } from '../support/stack-env';

/**
 * The local Functions runner over real HTTP and real (Azurite) queues, serving the fixture app in
 * test/fixtures/runner-app with short queue timings (its host.json: visibilityTimeout 1 s, maxDequeueCount 3).
 * Storage is the shared test stack's Azurite; queue names are unique to this run.
 */

const projectRoot = findProjectRoot(__dirname);
const fixtureQueue = `fx-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;
let runner: RunnerProcess;
let base: string;
const runnerOutput: string[] = [];

function queue(name: string): QueueClient {
  return QueueServiceClient.fromConnectionString(storageConnection()).getQueueClient(name);
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function received(kind: string, from = base): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${from}/_fixture/received`);
  const body = (await res.json()) as Record<string, Record<string, unknown>[]>;
  return body[kind] ?? [];
}

/**
 * Polls `read` until `done` holds (queue work is asynchronous), failing with the last value seen. The ceiling is one
 * that only a hang reaches: a busy machine makes the wait longer, never the test fail.
 */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

function startFixtureRunner(
  extraEnv: Record<string, string> = {},
  options: Partial<RunnerProcessOptions> = {},
): Promise<RunnerProcess> {
  return startRunnerProcess({
    projectRoot,
    main: 'dist/test/fixtures/runner-app/*.js',
    hostJson: 'test/fixtures/runner-app/host.json',
    drainTimeoutMs: 5_000,
    env: { ...process.env, AzureWebJobsStorage: storageConnection(), FIXTURE_QUEUE: fixtureQueue, ...extraEnv },
    onLine: (line) => runnerOutput.push(line),
    ...options,
  });
}

beforeAll(async () => {
  runner = await startFixtureRunner();
  base = runner.url;
});

afterAll(async () => {
  await runner?.stop();
});

describe('the shared test stack', () => {
  it('publishes a gateway that answers HTTP', async () => {
    const res = await fetch(`${gatewayUrl()}/no-such-route-${fixtureQueue}`);
    expect(res.status).toBe(404);
    expect(process.env.AUTH_MODE).toBe('local');
  });
});

describe('runner HTTP', () => {
  it('prints its ready line with the real port', () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(base).not.toMatch(/:0$/);
    expect(runnerOutput).toContain(`Runner listening on ${base}`);
  });

  it('passes route params, and the query string untouched', async () => {
    const res = await fetch(`${base}/echo/42?a=1&a=2&b=x%20y&empty=`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.method).toBe('GET');
    expect(body.params).toEqual({ id: '42' });
    expect(body.url).toBe(`${base}/echo/42?a=1&a=2&b=x%20y&empty=`);
    // As the host hands the query over: repeated keys joined with a comma, empty values kept.
    expect(body.query).toEqual([
      ['a', '1,2'],
      ['b', 'x y'],
      ['empty', ''],
    ]);
  });

  it('keeps an idle connection open as long as the Functions host does (Kestrel: 130 s), and tells the client', async () => {
    const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
      const req = httpRequest(`${base}/echo/1`, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers['keep-alive']?.toString()));
      });
      req.on('error', reject);
      req.end();
    });
    // Node's default would say timeout=5: a client's next call after a few quiet seconds would need a new connection.
    expect(keepAlive).toBe('timeout=130');
  });

  it('matches routes case-insensitively and ignores a trailing slash', async () => {
    for (const path of ['/ECHO/7', '/Echo/7/', '/echo/7//']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(((await res.json()) as { params: unknown }).params).toEqual({ id: '7' });
    }
  });

  it('serves a function without a route at its name, any case', async () => {
    const res = await fetch(`${base}/noroutefn`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('by name');
  });

  it('prefers a literal route to a parameter route registered before it', async () => {
    expect(await (await fetch(`${base}/items/special`)).text()).toBe('special');
    const byId = await fetch(`${base}/items/15`);
    expect(((await byId.json()) as { params: unknown }).params).toEqual({ id: '15' });
    expect((await fetch(`${base}/items/a/b`)).status).toBe(404);
  });

  it('honours the registered methods', async () => {
    expect((await fetch(`${base}/echo/1`, { method: 'PUT', body: 'x' })).status).toBe(200);
    expect((await fetch(`${base}/items/1`, { method: 'DELETE' })).status).toBe(200);
    const wrong = await fetch(`${base}/echo/1`, { method: 'DELETE' });
    expect(wrong.status).toBe(404);
  });

  it('answers 404 with an empty body for an unknown route', async () => {
    const res = await fetch(`${base}/no/such/route`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('passes request bodies through byte for byte, both ways', async () => {
    const bytes = Buffer.alloc(256 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) % 256;
    const res = await fetch(`${base}/binary`, {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

    // Bytes that are not valid UTF-8 reach the handler unchanged too.
    const odd = Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x0a]);
    const echo = await fetch(`${base}/echo/1`, { method: 'POST', body: odd });
    const body = (await echo.json()) as { bodyBase64: string; bodyLength: number };
    expect(body.bodyLength).toBe(odd.length);
    expect(Buffer.from(body.bodyBase64, 'base64').equals(odd)).toBe(true);
  });

  it('accepts a body over 1 MB (the app, not the runner, enforces its limit)', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x61);
    const res = await fetch(`${base}/echo/1`, { method: 'POST', body: big });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { bodyLength: number }).bodyLength).toBe(big.length);
  });

  it('returns status, repeated headers and cookies as the handler set them', async () => {
    const res = await fetch(`${base}/multi-header`);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(res.headers.get('x-single')).toBe('one');
    expect(res.headers.getSetCookie()).toEqual(['first=1', 'second=2; Path=/; HttpOnly']);
    expect(await res.text()).toBe('ok');
  });

  it('answers 500 with an empty body when the handler throws, and logs the error', async () => {
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('');
    await eventually(
      async () => runnerOutput.join('\n'),
      (out) => out.includes('fixture handler failure'),
    );
  });
});

describe('runner queue triggers', () => {
  it('delivers a base64 JSON message as the parsed object with its trigger metadata', async () => {
    const q = queue(fixtureQueue);
    await q.createIfNotExists();
    await q.sendMessage(b64(JSON.stringify({ jobId: 'job-1', n: 1 })));

    const [entry] = await eventually(
      () => received('echo'),
      (list) => list.some((e) => (e.message as { jobId?: string }).jobId === 'job-1'),
    ).then((list) => list.filter((e) => (e.message as { jobId?: string }).jobId === 'job-1'));
    expect(entry.message).toEqual({ jobId: 'job-1', n: 1 });
    const meta = entry.triggerMetadata as Record<string, unknown>;
    expect(meta.dequeueCount).toBe(1);
    expect(typeof meta.id).toBe('string');
    expect(typeof meta.popReceipt).toBe('string');
    for (const key of ['insertionTime', 'expirationTime', 'nextVisibleTime']) {
      expect(Number.isNaN(Date.parse(String(meta[key])))).toBe(false);
    }
    // Settled: deleted from the queue.
    const props = await eventually(
      () => q.getProperties(),
      (p) => p.approximateMessagesCount === 0,
    );
    expect(props.approximateMessagesCount).toBe(0);
  });

  it('writes queue output bindings, base64 encoded, and picks them up', async () => {
    const res = await fetch(`${base}/enqueue`, {
      method: 'POST',
      body: JSON.stringify({ jobId: 'job-from-http' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(202);
    await eventually(
      () => received('echo'),
      (list) => list.some((e) => (e.message as { jobId?: string }).jobId === 'job-from-http'),
    );
  });

  it('retries a failed message after visibilityTimeout with a higher dequeueCount', async () => {
    const q = queue(`${fixtureQueue}-flaky`);
    await q.createIfNotExists();
    await q.sendMessage(b64(JSON.stringify({ flaky: true })));

    const attempts = await eventually(
      () => received('flaky'),
      (list) => list.length >= 2,
    );
    expect(attempts.map((a) => a.dequeueCount)).toEqual([1, 2]);
    // The retry waited out the 1 s visibility timeout of the fixture's host.json.
    expect((attempts[1].at as number) - (attempts[0].at as number)).toBeGreaterThanOrEqual(900);
    await eventually(
      () => q.getProperties(),
      (p) => p.approximateMessagesCount === 0,
    );
  });

  it('moves a message to <queue>-poison, content unchanged, after maxDequeueCount failures', async () => {
    const q = queue(`${fixtureQueue}-bad`);
    await q.createIfNotExists();
    const content = b64(JSON.stringify({ poison: 'me' }));
    await q.sendMessage(content);

    const poison = queue(`${fixtureQueue}-bad-poison`);
    const peeked = await eventually(
      async () => ((await poison.exists()) ? (await poison.peekMessages()).peekedMessageItems : []),
      (items) => items.length > 0,
    );
    expect(peeked[0].messageText).toBe(content);
    expect((await received('bad')).map((a) => a.dequeueCount)).toEqual([1, 2, 3]);
    // Copied first, then deleted from its queue: the deletion may land a moment after the copy is seen.
    await eventually(
      () => q.getProperties(),
      (p) => p.approximateMessagesCount === 0,
    );
  });

  it('sends a message that is not base64 straight to the poison queue', async () => {
    const q = queue(fixtureQueue);
    await q.sendMessage('not base64 at all!');
    const poison = queue(`${fixtureQueue}-poison`);
    const peeked = await eventually(
      async () => ((await poison.exists()) ? (await poison.peekMessages()).peekedMessageItems : []),
      (items) => items.length > 0,
    );
    expect(peeked[0].messageText).toBe('not base64 at all!');
  });
});

describe('runner hygiene', () => {
  // Its own runner: --verbose (request headers in the log) and short time-outs, so a test can wait them out.
  let own: RunnerProcess;
  const output: string[] = [];
  beforeAll(async () => {
    own = await startFixtureRunner(
      { FIXTURE_QUEUE: `${fixtureQueue}-hygiene` },
      { verbose: true, headersTimeoutMs: 300, requestTimeoutMs: 600, onLine: (line) => output.push(line) },
    );
  });
  afterAll(async () => {
    await own?.stop();
  });

  /** Sends raw bytes on a fresh connection; resolves when the server closes it, with what it answered. */
  function rawExchange(bytes: string): Promise<string> {
    const { port } = new URL(own.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
      // Only a runner that never closes the connection gets here: its time-outs are well under a second.
      setTimeout(() => reject(new Error(`connection still open after 25 s; answer so far: ${answer}`)), 25_000).unref();
    });
  }

  it('keeps keys out of its access log, in the query string and in headers, and hands them to the app', async () => {
    const secrets = [
      'q-sub-7f3a',
      'q-code-51d8',
      'q-sid-4b06',
      'q-sig-0b8e',
      'h-api-6d4f',
      'h-sid-2a91',
      'h-bearer-7c35',
    ];
    const query = `subscription-key=${secrets[0]}&code=${secrets[1]}&Ocp-Apim-Sid-Key=${secrets[2]}&sig=${secrets[3]}&page=2`;
    const res = await fetch(`${own.url}/echo/1?${query}`, {
      headers: {
        'Ocp-Apim-Subscription-Key': secrets[4],
        'Ocp-Apim-Sid-Key': secrets[5],
        Authorization: `Bearer ${secrets[6]}`,
        'X-Request-Note': 'visible',
      },
    });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as { url: string; headers: Record<string, string> };
    expect(seen.url).toBe(`${own.url}/echo/1?${query}`);
    expect(seen.headers['ocp-apim-subscription-key']).toBe(secrets[4]);

    const access =
      '/echo/1?subscription-key=[redacted]&code=[redacted]&Ocp-Apim-Sid-Key=[redacted]&sig=[redacted]&page=2';
    await eventually(
      async () => output.join('\n'),
      (out) => out.includes(`GET ${access} 200`),
    );
    const lines = output.slice(output.findIndex((l) => l.startsWith(`GET ${access} 200`)));
    expect(lines).toEqual(
      expect.arrayContaining([
        '  ocp-apim-subscription-key: [redacted]',
        '  ocp-apim-sid-key: [redacted]',
        '  authorization: [redacted]',
        '  x-request-note: visible',
      ]),
    );
    for (const secret of secrets) expect(output.filter((l) => l.includes(secret))).toEqual([]);
  });

  it('answers 408 and closes a connection whose declared 2 MB body never comes', async () => {
    const answer = await rawExchange(
      'POST /echo/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n{',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    await eventually(
      async () => output.join('\n'),
      (out) => /^POST \/echo\/1 incomplete \d+ms$/m.test(out),
    );
  });

  it('answers 408 and closes a connection whose headers never end', async () => {
    const answer = await rawExchange('GET /echo/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('times only the request: a handler slower than the time-outs still answers', async () => {
    const res = await fetch(`${own.url}/slow?ms=1500`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('slow done');
  });
});

describe('runner lifecycle', () => {
  it('lets an in-flight request finish on SIGTERM, then exits 0', async () => {
    const own = await startFixtureRunner({ FIXTURE_QUEUE: `${fixtureQueue}-life` });
    const pending = fetch(`${own.url}/slow?ms=3000`);
    // Once the handler runs, however long the machine took to get there.
    await eventually(
      () => received('slow', own.url),
      (list) => list.length > 0,
    );
    own.child.process.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('slow done');
    expect(await own.child.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses to start when the app fails to load, showing why', async () => {
    await expect(
      startRunnerProcess({
        projectRoot,
        main: 'dist/test/fixtures/broken-app/*.js',
        env: { ...process.env, AzureWebJobsStorage: storageConnection() },
      }),
    ).rejects.toThrow(/FIXTURE_REQUIRED_SETTING: Required/);
  });

  it('a stack whose app fails to load rejects with the reason and leaves nothing running', async () => {
    const lines: string[] = [];
    const started = startStack({
      projectRoot,
      inMemory: true,
      runner: { main: 'dist/test/fixtures/broken-app/*.js' },
      output: (service, line) => lines.push(`${service}: ${line}`),
    });
    await expect(started).rejects.toThrow(/FIXTURE_REQUIRED_SETTING/);
    expect(lines.some((l) => l.startsWith('azurite-table:'))).toBe(true);
    expect(lines.some((l) => l.includes('Azurite Table service successfully closed'))).toBe(true);
    expect(lines.some((l) => l.includes('Azurite Queue service successfully closed'))).toBe(true);
  });

  it('rejects a dataset it cannot import, naming the file', async () => {
    const missing = startStack({ projectRoot, inMemory: true, dataset: 'test/fixtures/does-not-exist.json' });
    await expect(missing).rejects.toThrow(/does-not-exist\.json/);
  });
});

describe('functions disabled by app setting (AzureWebJobs.<name>.Disabled)', () => {
  it('does not read their queue, fire their timer or route their HTTP requests; the others serve', async () => {
    const offQueue = `${fixtureQueue}-off`;
    const lines: string[] = [];
    const own = await startFixtureRunner(
      {
        FIXTURE_QUEUE: offQueue,
        [disabledSetting('queueEcho')]: 'true',
        [disabledSetting('timerTick')]: 'TRUE',
        [disabledSetting('echo')]: 'true',
        [disabledSetting('itemById')]: 'false',
      },
      { onLine: (line) => lines.push(line) },
    );
    try {
      const q = queue(offQueue);
      await q.createIfNotExists();
      await q.sendMessage(b64(JSON.stringify({ jobId: 'never-read' })));
      expect((await fetch(`${own.url}/echo/1`)).status).toBe(404);
      expect((await fetch(`${own.url}/items/1`)).status).toBe(200);
      // Two seconds: two ticks of the timer, and the queue polled at its shortest interval many times over.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(await received('tick', own.url)).toEqual([]);
      expect(await received('echo', own.url)).toEqual([]);
      const [message] = (await q.peekMessages()).peekedMessageItems;
      expect(message.dequeueCount).toBe(0);
      expect(lines).toEqual(
        expect.arrayContaining([
          '  queueEcho: disabled (AzureWebJobs.queueEcho.Disabled)',
          '  timerTick: disabled (AzureWebJobs.timerTick.Disabled)',
          '  echo: disabled (AzureWebJobs.echo.Disabled)',
        ]),
      );
      await q.delete();
    } finally {
      await own.stop();
    }
  });
});

describe('runner timers', () => {
  it('runs a timer-triggered function on its schedule, with the timer information the host passes', async () => {
    const ticks = await eventually(
      () => received('tick'),
      (t) => t.length >= 3,
    );
    const [first, second] = ticks as { timer: any }[];
    expect(first.timer).toEqual({
      isPastDue: false,
      schedule: { adjustForDST: true },
      scheduleStatus: { last: expect.any(String), next: expect.any(String), lastUpdated: expect.any(String) },
    });
    // Once a second, never twice in one second: by the occurrences fired, which a busy machine cannot bring closer.
    const occurrence = (tick: { timer: any }) => Date.parse(tick.timer.scheduleStatus.lastUpdated);
    expect(occurrence(second) - occurrence(first)).toBeGreaterThanOrEqual(1000);
    expect(Date.parse(first.timer.scheduleStatus.next) - Date.parse(first.timer.scheduleStatus.lastUpdated)).toBe(1000);
    expect(runnerOutput).toContain('  timerTick: [timer] * * * * * *');
  });
});
