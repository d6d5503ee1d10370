import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { checkHealth, HealthDeps } from '../../shared/health/health-check';
import { probeSiex } from '../../shared/health/siex-probe';

/** GET /v1/health's checks (issue 36, item 6): what decides its status, and what the SIEX probe reports. */
describe('the health check', () => {
  const deps = (over: Partial<HealthDeps> = {}): HealthDeps => ({
    readTables: async () => undefined,
    queueDepths: async () => ({ 'export-jobs': 2, 'export-jobs-poison': 0 }),
    settings: { SIEX_USERNAME: 'siex', WEBHOOK_SIGNING_KEY: 'k'.repeat(40) },
    probeSiex: async () => ({ outcome: 'reachable', durationMs: 40 }),
    now: () => 0,
    ...over,
  });

  it('is ok when the tables, the queues and every Key Vault reference are', async () => {
    const { health } = await checkHealth(deps());
    expect(health).toEqual({
      status: 'ok',
      checks: {
        tables: { ok: true, ms: 0 },
        queues: { ok: true, waiting: { 'export-jobs': 2, 'export-jobs-poison': 0 } },
        keyVaultReferences: { ok: true, unresolved: [] },
        siex: { outcome: 'reachable', ms: 40 },
      },
    });
  });

  it('fails on storage that does not answer, or a setting left as its Key Vault reference, naming it', async () => {
    const storageDown = await checkHealth(
      deps({
        readTables: () => Promise.reject(new Error('ECONNREFUSED')),
        queueDepths: () => Promise.reject(new Error('x')),
      }),
    );
    expect(storageDown.health.status).toBe('failing');
    expect(storageDown.health.checks.tables.ok).toBe(false);
    expect(storageDown.health.checks.queues).toEqual({ ok: false, waiting: {} });
    const reference = '@Microsoft.KeyVault(VaultName=kv-x;SecretName=siex-password)';
    const unresolved = await checkHealth(deps({ settings: { SIEX_PASSWORD: reference, SIEX_USERNAME: 'siex' } }));
    expect(unresolved.health.status).toBe('failing');
    expect(unresolved.health.checks.keyVaultReferences).toEqual({ ok: false, unresolved: ['SIEX_PASSWORD'] });
  });

  it('reports SIEX unreachable without failing: SIEX down is not the gateway down', async () => {
    const { health, probe } = await checkHealth(
      deps({ probeSiex: async () => ({ outcome: 'unreachable', durationMs: 5000, detail: 'TimeoutError' }) }),
    );
    expect(health.status).toBe('ok');
    expect(health.checks.siex).toEqual({ outcome: 'unreachable', ms: 5000 });
    expect(probe.detail).toBe('TimeoutError');
  });
});

describe('the SIEX probe', () => {
  let server: Server;
  let url: string;
  let status = 404;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.statusCode = status;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/iuws`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('takes any answer below 500 as SIEX there, a 5xx or no answer as unreachable', async () => {
    status = 404;
    expect((await probeSiex({ SIEX_BASE_URL: url })).outcome).toBe('reachable');
    status = 503;
    expect(await probeSiex({ SIEX_BASE_URL: url })).toMatchObject({
      outcome: 'unreachable',
      detail: 'answered HTTP 503',
    });
    // A port nobody listens on: one just given back.
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    const closed = await probeSiex({ SIEX_BASE_URL: `http://127.0.0.1:${port}/iuws` });
    expect(closed.outcome).toBe('unreachable');
    expect(closed.detail).toMatch(/ECONNREFUSED/);
  });

  it('does not call SIEX without an address, or while the certificate is still a Key Vault reference', async () => {
    expect((await probeSiex({})).outcome).toBe('not-configured');
    expect(
      (await probeSiex({ SIEX_BASE_URL: url, SIEX_CLIENT_CERT: '@Microsoft.KeyVault(VaultName=kv;SecretName=c)' }))
        .outcome,
    ).toBe('not-configured');
  });
});
