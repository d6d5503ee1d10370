import { clientRegistrationSchema } from '../../shared/clients/client-registration';
import { parseSettings } from '../../shared/config/config';
import { afterTry, GIVE_UP_AFTER_MS, jobEvent, retryDelayMs } from '../../shared/notify/webhook-event';
import { webhookSecret } from '../../shared/notify/webhook-secret';
import { signatureHeader, verifySignature } from '../../shared/notify/webhook-signature';

/** Issue 26 item 6, the pure parts: signatures, the retry schedule, the webhook address, the signing key setting. */

const T = Date.UTC(2026, 4, 14, 10, 0, 0);
const BODY = '{"id":"evt_job_7_outcome","type":"job.finished"}';

describe('signatures', () => {
  const secret = webhookSecret('a signing key of at least thirty-two characters', 'agrosoft');

  it('verify the body they signed, with the secret they were made with, near the time they name', () => {
    const header = signatureHeader(secret, BODY, T);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, BODY, T + 60_000)).toBe(true);
    expect(verifySignature(secret, header, `${BODY} `, T)).toBe(false);
    expect(verifySignature(`${secret}x`, header, BODY, T)).toBe(false);
    expect(verifySignature(secret, header, BODY, T + 301_000)).toBe(false);
    expect(verifySignature(secret, header.replace(/t=\d+/, `t=${T / 1000 + 1}`), BODY, T)).toBe(false);
    expect(verifySignature(secret, 'v1=00', BODY, T)).toBe(false);
  });

  it("are made with a secret of each client's own, derived from the signing key", () => {
    const key = 'a signing key of at least thirty-two characters';
    expect(webhookSecret(key, 'agrosoft')).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(webhookSecret(key, 'agrosoft')).toBe(webhookSecret(key, 'agrosoft'));
    expect(webhookSecret(key, 'agrosoft')).not.toBe(webhookSecret(key, 'campo-digital'));
    expect(webhookSecret(key, 'agrosoft')).not.toBe(webhookSecret(`${key}!`, 'agrosoft'));
  });
});

describe('deliveries', () => {
  const event = jobEvent({ jobId: 7, status: 'FinalizadoConErrores', accepted: 2, total: 3 }, 'outcome', T);

  it('carry a stable id and what the job came to', () => {
    expect(JSON.parse(event.body)).toEqual({
      id: 'evt_job_7_outcome',
      type: 'job.finished',
      created: '2026-05-14T10:00:00.000Z',
      data: { jobId: 7, status: 'FinalizadoConErrores', ok: 2, errors: 1 },
    });
    expect(jobEvent({ jobId: 7, status: 'x', accepted: 0, total: 0 }, 'reconciled', T).id).toBe('evt_job_7_reconciled');
  });

  it('are retried 30 s after a failure, doubling up to hourly, for at least a day, then given up', () => {
    expect([1, 2, 3, 8, 20].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 3_600_000, 3_600_000]);
    let d = event;
    let now = T;
    while (d.state === 'pending') {
      d = afterTry(d, 'answered HTTP 503', now);
      now = d.due;
    }
    expect(d.state).toBe('abandoned');
    expect(d.lastError).toBe('answered HTTP 503');
    expect(now - T - retryDelayMs(d.attempts)).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
    expect(GIVE_UP_AFTER_MS).toBeGreaterThanOrEqual(24 * 3_600_000);
  });

  it('are delivered once answered 2xx, and a settled delivery never moves again', () => {
    const delivered = afterTry(afterTry(event, 'answered HTTP 500', T), true, T + 30_000);
    expect([delivered.state, delivered.attempts, delivered.lastError]).toEqual(['delivered', 2, '']);
    expect(() => afterTry(delivered, true, T)).toThrow('cannot move from delivered to delivered');
  });
});

describe('the webhook in the back-office data', () => {
  const base = { id: 'agrosoft', name: 'A', email: 'a@b.example', sidKey: 's'.repeat(32), apiKey: 'a'.repeat(32) };
  const accepts = (webhook: string) => clientRegistrationSchema.safeParse({ ...base, webhook }).success;

  it('is an https URL, or http to this machine only', () => {
    expect(accepts('https://erp.example/hooks/siex')).toBe(true);
    expect(accepts('http://127.0.0.1:7083/hooks/agrosoft')).toBe(true);
    expect(accepts('http://localhost:9000/x')).toBe(true);
    expect(accepts('http://erp.example/hooks')).toBe(false);
    expect(accepts('ftp://erp.example/hooks')).toBe(false);
    expect(clientRegistrationSchema.safeParse(base).success).toBe(true);
  });
});

describe('WEBHOOK_SIGNING_KEY', () => {
  const settings = (key: string) =>
    parseSettings({ AzureWebJobsStorage: 'UseDevelopmentStorage=true', WEBHOOK_SIGNING_KEY: key });

  it('counts as unset when it is an unresolved Key Vault reference, never as the key', () => {
    expect(settings('@Microsoft.KeyVault(VaultName=kv-x;SecretName=webhook-signing-key)').WEBHOOK_SIGNING_KEY).toBe(
      undefined,
    );
    expect(settings('k'.repeat(32)).WEBHOOK_SIGNING_KEY).toBe('k'.repeat(32));
    expect(() => settings('short')).toThrow('WEBHOOK_SIGNING_KEY');
  });
});
