import { APP_QUEUES } from '../../shared/store/queues';
import { get } from '../helpers/http';

/**
 * GET /v1/health (issue 36, item 6) against the running stack: its tables, its queues and its settings are all
 * there, so 200 and `ok`; the SIEX simulator answers the probe. No key is needed locally, as for the OpenAPI document;
 * behind API Management only a request the platform admitted as API Management's identity is answered
 * (test/unit/health-check.test.ts).
 */
describe('GET /v1/health', () => {
  it('answers 200 ok with each check, the queues with their waiting messages, and SIEX reached', async () => {
    const reply = await get('/v1/health');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.json).toMatchObject({
      status: 'ok',
      checks: {
        tables: { ok: true },
        queues: {
          ok: true,
          // Every queue the app uses, a poison queue no message has reached yet among them (none waiting).
          waiting: Object.fromEntries(APP_QUEUES.map((q) => [q, expect.any(Number)])),
        },
        keyVaultReferences: { ok: true, unresolved: [] },
        siex: { outcome: 'reachable' },
      },
    });
  });
});
