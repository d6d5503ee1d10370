import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { clientRegistrationSchema } from '../../shared/clients/client-registration';
import { parseSettings } from '../../shared/config/config';
import { checkMove, TransitionRefused } from '../../shared/domain/state-machine';
import {
  afterTry,
  DELIVERY_TRANSITIONS,
  DeliveryState,
  GIVE_UP_AFTER_MS,
  jobEvent,
  retryDelayMs,
} from '../../shared/notify/webhook-event';
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

describe("the README's Node verification", () => {
  // The snippet as the README shows it, run: a reader who copies it gets a check that works.
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Verifying a webhook signature'));
  const code = /```js\n([\s\S]*?)```/.exec(section)![1];
  const verify = runInNewContext(`${code}\nverify`, { require, Buffer }) as (
    secret: string,
    header: string,
    rawBody: Buffer | string,
    nowMs?: number,
  ) => boolean;

  it("accepts the gateway's signature and refuses a changed body, another secret or an old one", () => {
    const secret = webhookSecret('a signing key of at least thirty-two characters', 'agrosoft');
    const header = signatureHeader(secret, BODY, T);
    expect(verify(secret, header, Buffer.from(BODY), T)).toBe(true);
    expect(verify(secret, header, Buffer.from(`${BODY}\n`), T)).toBe(false);
    expect(verify(`${secret}x`, header, Buffer.from(BODY), T)).toBe(false);
    expect(verify(secret, header, Buffer.from(BODY), T + 600_000)).toBe(false);
  });
});

describe('a delivery as a state machine', () => {
  it('moves only as its table says: every pair walked', () => {
    const states = Object.keys(DELIVERY_TRANSITIONS) as DeliveryState[];
    const passed = states.flatMap((from) =>
      states.flatMap((to) => {
        try {
          checkMove('webhook delivery', DELIVERY_TRANSITIONS, from, to);
          return [`${from} > ${to}`];
        } catch (e) {
          expect(e).toBeInstanceOf(TransitionRefused);
          return [];
        }
      }),
    );
    expect(passed).toEqual(['pending > pending', 'pending > delivered', 'pending > abandoned']);
  });
});
