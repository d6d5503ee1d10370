import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import {
  backendVerdict,
  referenceVerdict,
  remainingPropagation,
  ROLE_PROPAGATION_MS,
  verifyBackend,
} from '../../local/deploy-checks';
import { Clock } from '../../shared/time/clock';

describe('the predeploy hook waits for role propagation', () => {
  const created = '2026-11-25T10:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('waits until the newest assignment is ten minutes old', () => {
    expect(remainingPropagation(['2026-11-25T09:00:00Z', created], at('2026-11-25T10:04:00Z'))).toBe(6 * 60_000);
  });

  it('does not wait for assignments older than that, or when there are none', () => {
    expect(remainingPropagation([created], at(created) + ROLE_PROPAGATION_MS + 1)).toBe(0);
    expect(remainingPropagation([], at(created))).toBe(0);
    expect(remainingPropagation([''], at(created))).toBe(0);
  });
});

describe('the postdeploy hook requires the function host to answer 401', () => {
  it('reads 401 as refused, 5xx, 429 and no answer as worth another try, anything else as open', () => {
    expect(backendVerdict(401)).toBe('refused');
    for (const s of [undefined, 429, 500, 502, 503]) expect(backendVerdict(s)).toBe('retry');
    for (const s of [200, 204, 302, 403, 404]) expect(backendVerdict(s)).toBe('open');
  });

  let server: Server;
  let answers: number[];
  let url: string;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.statusCode = answers.shift() ?? 500;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/openapi.json`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // Sleeps end at once and are recorded: the test asserts the waits asked for, not how long they took.
  let slept: number[];
  const clock: Clock = {
    now: () => 0,
    sleep: (ms) => {
      slept.push(ms);
      return Promise.resolve();
    },
    every: () => () => undefined,
  };
  const options = () => {
    slept = [];
    return { attempts: 3, delayMs: 1000, clock };
  };

  it('passes once a host that was starting answers 401', async () => {
    answers = [503, 401];
    await expect(verifyBackend(url, options())).resolves.toBeUndefined();
    expect(slept).toEqual([1000]);
  });

  it('fails at once when the host answers without a token', async () => {
    answers = [200, 401];
    await expect(verifyBackend(url, options())).rejects.toThrow(/answered HTTP 200 without a token/);
    expect(slept).toEqual([]);
  });

  it('fails when the host never answers 401', async () => {
    answers = [503, 503, 503];
    await expect(verifyBackend(url, options())).rejects.toThrow(/did not answer 401 after 3 tries \(last: HTTP 503\)/);
    expect(slept).toEqual([1000, 1000]);
  });
});

describe('the postdeploy hook requires every Key Vault reference to resolve (issue 36, H2)', () => {
  it('tells a secret not uploaded yet from a reference that cannot resolve (the vault unreachable, access denied)', () => {
    expect(
      referenceVerdict([
        { name: 'SIEX_USERNAME', status: 'Resolved' },
        { name: 'SIEX_PASSWORD', status: 'SecretNotFound' },
        {
          name: 'SIEX_CLIENT_CERT',
          status: 'AccessToKeyVaultDenied',
          details: 'the vault refused the private endpoint',
        },
        { name: 'WEBHOOK_SIGNING_KEY', status: 'FetchTimedOut' },
      ]),
    ).toEqual({
      missing: ['SIEX_PASSWORD (SecretNotFound)'],
      broken: [
        'SIEX_CLIENT_CERT (AccessToKeyVaultDenied: the vault refused the private endpoint)',
        'WEBHOOK_SIGNING_KEY (FetchTimedOut)',
      ],
    });
  });

  it('finds nothing to say when every reference resolves', () => {
    expect(referenceVerdict([{ name: 'SIEX_USERNAME', status: 'Resolved' }])).toEqual({ missing: [], broken: [] });
  });
});
