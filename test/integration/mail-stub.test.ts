import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseSettings } from '../../shared/config/config';
import { MailError, MailMessage, createMailer } from '../../shared/email/mailer';
import { mailStubControl } from '../../local/mail-stub/control';
import { MAIL_STUB_ACCESS_KEY, RunningMailStub, startMailStub } from '../../local/mail-stub/server';
import { mailStubService } from '../../local/mail-stub/service';
import { parseMailStubArgs } from '../../local/mail-stub/main';
import { parseSimulatorArgs } from '../../local/siex-simulator/main';
import { findProjectRoot } from '../../local/stack';

/** The mailer, through the real @azure/communication-email SDK, against the e-mail stub over HTTP. */

let stub: RunningMailStub;
const control = () => mailStubControl(stub.url);

const message: MailMessage = {
  to: 'integraciones@agrosoft-levante.example',
  subject: 'SIEX export job 12: FinalizadoCompleto',
  text: 'Export job 12 finished: FinalizadoCompleto.',
  html: '<p>Export job <b>12</b> finished: <b>FinalizadoCompleto</b>.</p>',
};

const fast = { retryDelayInMs: 10, pollIntervalMs: 10 };
function mailer(connectionString = stub.connectionString, options = {}) {
  return createMailer(
    parseSettings({
      AzureWebJobsStorage: 'x',
      EMAIL_CONNECTION_STRING: connectionString,
      EMAIL_SENDER: 'DoNotReply@gw.example',
    }),
    { ...fast, ...options },
  );
}

async function mailFailure(p: Promise<unknown>): Promise<MailError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(MailError);
    return e as MailError;
  }
  throw new Error('expected a MailError');
}

beforeAll(async () => {
  stub = await startMailStub({ port: 0 });
});
afterAll(() => stub.stop());
beforeEach(() => control().reset());

describe('mailer ⇄ e-mail stub', () => {
  it('sends through the SDK and the stub keeps the e-mail in its outbox', async () => {
    await mailer().send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000012');
    const outbox = await control().outbox();
    expect(outbox).toEqual([
      {
        operationId: '5d2a7c0e-1f3b-4c8a-9e21-000000000012',
        from: 'DoNotReply@gw.example',
        to: message.to,
        cc: '',
        bcc: '',
        subject: message.subject,
        text: message.text,
        html: message.html,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(await control().stats()).toMatchObject({ sends: 1, accepted: 1, duplicates: 0, refused: 0, failed: 0 });
  });

  it('sends once per operation id, also from another mailer (a redelivered queue message in another instance)', async () => {
    const id = '5d2a7c0e-1f3b-4c8a-9e21-000000000013';
    await mailer().send(message, id);
    await mailer().send(message, id);
    const again = mailer();
    await again.send({ ...message, subject: 'changed' }, id);
    await mailer().send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000014');
    const outbox = await control().outbox();
    expect(outbox.map((m) => [m.operationId, m.subject])).toEqual([
      [id, message.subject],
      ['5d2a7c0e-1f3b-4c8a-9e21-000000000014', message.subject],
    ]);
    expect(await control().stats()).toMatchObject({ sends: 4, accepted: 2, duplicates: 2 });
  });

  it('a wrong access key is refused, like the real service, and not retried', async () => {
    const wrongKey = stub.connectionString.replace(
      /accesskey=.*$/,
      `accesskey=${Buffer.from('not the key').toString('base64')}`,
    );
    const e = await mailFailure(mailer(wrongKey).send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000015'));
    expect(e).toMatchObject({ status: 401, retryable: false });
    expect(e.message).toMatch(/answered 401/);
    expect(await control().outbox()).toEqual([]);
    expect(await control().stats()).toMatchObject({ sends: 1, refused: 1 });
  });

  it('rides out failures (failNext) with the SDK retries', async () => {
    await control().failNext(2);
    await mailer().send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000016');
    expect(await control().outbox()).toHaveLength(1);
    expect(await control().stats()).toMatchObject({ sends: 3, failed: 2, accepted: 1 });
  });

  it('when the service stays down: a retryable MailError, and the later retry with the same id sends it once', async () => {
    await control().failNext(10);
    const e = await mailFailure(
      mailer(stub.connectionString, { maxRetries: 2 }).send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000017'),
    );
    expect(e).toMatchObject({ status: 503, retryable: true });
    expect(await control().stats()).toMatchObject({ sends: 3, failed: 3 });
    await control().failNext(0);
    await mailer().send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000017');
    await mailer().send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000017');
    expect(await control().outbox()).toHaveLength(1);
  });

  it('a message the service refuses (no recipient address) is not retryable', async () => {
    const e = await mailFailure(mailer().send({ ...message, to: '' }, '5d2a7c0e-1f3b-4c8a-9e21-000000000018'));
    expect(e).toMatchObject({ status: 400, retryable: false });
  });

  it('without e-mail settings every send fails, not retryable, saying what to set', async () => {
    const e = await mailFailure(createMailer(parseSettings({ AzureWebJobsStorage: 'x' })).send(message, 'x'));
    expect(e).toMatchObject({ retryable: false });
    expect(e.message).toMatch(/set EMAIL_CONNECTION_STRING or EMAIL_ENDPOINT/);
  });

  it('with EMAIL_ENDPOINT it asks the identity for a Communication Services token (https only)', async () => {
    const scopes: string[][] = [];
    const credential = {
      getToken: async (scope: string | string[]) => {
        scopes.push([scope].flat());
        return { token: 'fake-token', expiresOnTimestamp: Date.now() + 3_600_000 };
      },
    };
    const m = createMailer(parseSettings({ AzureWebJobsStorage: 'x', EMAIL_ENDPOINT: 'https://127.0.0.1:9' }), {
      ...fast,
      maxRetries: 0,
      credential,
    });
    const e = await mailFailure(m.send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000019'));
    expect(e.retryable).toBe(true); // nothing listens there: a network error
    expect(scopes).toEqual([['https://communication.azure.com//.default']]);
    // A token never travels over plain http: the settings refuse an http endpoint.
    expect(() => parseSettings({ AzureWebJobsStorage: 'x', EMAIL_ENDPOINT: stub.url })).toThrow(/EMAIL_ENDPOINT/);
  });

  it('speaks the service protocol: api-version required, HMAC required, unknown operation 404', async () => {
    expect((await fetch(`${stub.url}/emails:send`, { method: 'POST', body: '{}' })).status).toBe(400);
    const unsigned = await fetch(`${stub.url}/emails:send?api-version=2025-09-01`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: { code: 'Denied' } });
    expect((await fetch(`${stub.url}/emails/operations/nope?api-version=2025-09-01`)).status).toBe(401);
    expect((await fetch(`${stub.url}/nothing`)).status).toBe(404);
  });
});

describe('local.settings.sample.json', () => {
  it('points at the defaults of the e-mail stub and the SIEX simulator (npm start with the default ports)', () => {
    const values = JSON.parse(readFileSync(join(findProjectRoot(__dirname), 'local.settings.sample.json'), 'utf8'))
      .Values as Record<string, string>;
    expect(values.EMAIL_CONNECTION_STRING).toBe(
      `endpoint=http://127.0.0.1:${parseMailStubArgs([]).port}/;accesskey=${MAIL_STUB_ACCESS_KEY}`,
    );
    const sim = parseSimulatorArgs([]);
    expect(values).toMatchObject({
      SIEX_BASE_URL: `http://127.0.0.1:${sim.port}`,
      SIEX_USERNAME: sim.username,
      SIEX_PASSWORD: sim.password,
    });
  });
});

describe('e-mail stub process', () => {
  const script = join(findProjectRoot(__dirname), 'dist/local/mail-stub/main.js');
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints its address and connection string, takes mail and stops on SIGTERM', async () => {
    child = spawn(process.execPath, [script, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const found: { url?: string; connectionString?: string } = {};
    await new Promise<void>((resolve, reject) => {
      const lines = createInterface({ input: child!.stdout! });
      lines.on('line', (line) => {
        const url = /^Mail outbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (url) found.url = url[1];
        const cs = /^Connection string: (endpoint=.*)$/.exec(line);
        if (cs) found.connectionString = cs[1];
        if (found.url && found.connectionString) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`mail stub exited with ${code}`)));
    });
    await mailer(found.connectionString).send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000020');
    expect((await mailStubControl(found.url!).outbox()).map((m) => m.to)).toEqual([message.to]);
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('runs as a service of the local stack and hands the runner its connection string', async () => {
    const root = findProjectRoot(__dirname);
    const service = await mailStubService().start({
      projectRoot: root,
      storageConnectionString: '',
      inMemory: true,
      dataDir: root,
      log: () => {},
    });
    try {
      expect(service.env).toEqual({
        EMAIL_CONNECTION_STRING: `endpoint=${service.url}/;accesskey=${MAIL_STUB_ACCESS_KEY}`,
        EMAIL_ENDPOINT: '',
      });
      await mailer(service.env!.EMAIL_CONNECTION_STRING).send(message, '5d2a7c0e-1f3b-4c8a-9e21-000000000021');
      expect(await mailStubControl(service.url).outbox()).toHaveLength(1);
    } finally {
      await service.stop();
    }
  });
});
