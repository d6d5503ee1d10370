import { DomainError } from '../../shared/domain/errors';
import { createLogger } from '../../shared/log/logger';
import type { DeliveryEntry } from '../../shared/notify/delivery-log';
import { deliverWebhook, DeliveryDeps, deliveryMessages, recipientsAmong } from '../../shared/notify/webhook-delivery';
import { jobEvent } from '../../shared/notify/webhook-event';
import { webhookSecret } from '../../shared/notify/webhook-secret';
import type { OneDelivery, TryOutcome, WebhookPort } from '../../shared/notify/webhook-sender';
import { webhookSettings, WebhookSettingsDeps } from '../../shared/notify/webhook-settings';
import { signatureHeader, verifySignature } from '../../shared/notify/webhook-signature';
import {
  defaultSubscription,
  hears,
  rotated,
  signingGenerations,
  withAddress,
  WebhookSubscription,
} from '../../shared/notify/webhook-subscription';
import type { Client } from '../../shared/clients/client-store';

/**
 * Issue 38 item 5, the pure parts and the use cases on memory stores: a client's own webhook settings, the rotation's
 * overlap (two signatures meanwhile, the secret from before an overlap kept through a second rotation), the events a
 * client chose, and a delivery that follows the settings the client has at each try.
 */

const T = Date.UTC(2026, 10, 29, 9, 0, 0);
const H = 3_600_000;
const KEY = 'a webhook signing key of at least thirty-two characters';
const HOOK = 'https://erp.example/hooks';

describe('a rotation', () => {
  const s = withAddress(null, { url: HOOK }, T);

  it('signs with the new secret and the old one for the overlap, then the new one alone', () => {
    const r = rotated(s, 24, T);
    expect([r.generation, r.previous]).toEqual([1, { generation: 0, until: T + 24 * H }]);
    expect(signingGenerations(r, T + 24 * H - 1)).toEqual([1, 0]);
    expect(signingGenerations(r, T + 24 * H)).toEqual([1]);
  });

  it('again during an overlap keeps the secret from before it, not the one in between, for the new overlap', () => {
    const twice = rotated(rotated(s, 24, T), 48, T + H);
    expect([twice.generation, twice.previous]).toEqual([2, { generation: 0, until: T + 49 * H }]);
    // After the overlap, a rotation replaces the one in force.
    const later = rotated(twice, 1, T + 50 * H);
    expect([later.generation, later.previous]).toEqual([3, { generation: 2, until: T + 51 * H }]);
  });

  it('with no overlap stops the old secret at once', () => {
    expect(signingGenerations(rotated(s, 0, T), T)).toEqual([1]);
  });
});

describe('the settings', () => {
  it('hear every job event by default, the chosen ones otherwise, and a ping always', () => {
    const all = withAddress(null, { url: HOOK }, T);
    expect(all.events).toEqual(['job.finished', 'job.reconciled']);
    const some = withAddress(all, { url: HOOK, events: ['job.reconciled'] }, T);
    expect([hears(some, 'job.finished'), hears(some, 'job.reconciled'), hears(some, 'webhook.ping')]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('keep the secret when the URL changes', () => {
    const r = rotated(withAddress(null, { url: HOOK }, T), 2, T);
    expect(withAddress(r, { url: `${HOOK}/v2` }, T + 1)).toMatchObject({ url: `${HOOK}/v2`, generation: 1 });
  });
});

describe('a signature header during an overlap', () => {
  const body = '{"id":"evt_ping_1"}';
  const [older, newer] = [webhookSecret(KEY, 'agrosoft'), webhookSecret(KEY, 'agrosoft', 1)];

  it('carries one v1 per secret, so a receiver with either verifies and one with another does not', () => {
    const header = signatureHeader([newer, older], body, T);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect([older, newer].map((s) => verifySignature(s, header, body, T))).toEqual([true, true]);
    expect(verifySignature(webhookSecret(KEY, 'agrosoft', 2), header, body, T)).toBe(false);
    expect(webhookSecret(KEY, 'agrosoft', 0)).toBe(webhookSecret(KEY, 'agrosoft'));
  });
});

/** The subscriptions and the journal in memory, as the tables keep them (tested over HTTP, test/e2e/webhooks.test.ts). */
function memoryStores() {
  const subs = new Map<string, WebhookSubscription>();
  const journal: [string, DeliveryEntry][] = [];
  return {
    subs,
    journal,
    stores: {
      subscriptions: {
        find: async (id: string) => subs.get(id) ?? null,
        change: async (id: string, change: (c: WebhookSubscription | null) => WebhookSubscription) => {
          const before = subs.get(id) ?? null;
          const after = change(before);
          subs.set(id, after);
          return { before, after };
        },
      },
      journal: {
        write: async (id: string, e: DeliveryEntry) => void journal.push([id, e]),
        last: async (id: string, limit: number) =>
          journal
            .filter(([c]) => c === id)
            .map(([, e]) => e)
            .reverse()
            .slice(0, limit),
      },
    },
  };
}

/** A sender that records each try and answers `outcome`. */
function recordingSender(outcome: TryOutcome = true) {
  const tries: OneDelivery[] = [];
  const sender: WebhookPort = { deliver: async (d) => (tries.push(d), outcome) };
  return { sender, tries };
}

const client = (webhookUrl = ''): Client => ({
  id: 'agrosoft',
  name: 'AgroSoft',
  email: 'a@erp.example',
  apiKeyHash: '',
  expires: '',
  farms: [],
  apimSubscriptionId: 'agrosoft',
  webhookUrl,
});

const codes = async (p: Promise<unknown>) =>
  p.then(
    () => [],
    (e: unknown) => (e as DomainError).violations.map((v) => [v.code, v.path]),
  );

describe('the webhook use cases', () => {
  function useCases(options: { outcome?: TryOutcome; key?: string | undefined; local?: boolean } = {}) {
    const m = memoryStores();
    const s = recordingSender(options.outcome);
    let now = T;
    const deps: WebhookSettingsDeps = {
      ...m.stores,
      signingKey: 'key' in options ? options.key : KEY,
      sender: async () => s.sender,
      policy: { allowLoopbackHttp: options.local ?? false },
      now: () => now,
    };
    return { ...m, ...s, ops: webhookSettings(deps), at: (ms: number) => (now = T + ms) };
  }

  it("show the secret when the client first sets its webhook, never again, and a rotation's new one", async () => {
    const u = useCases();
    const first = await u.ops.set(client(), { url: HOOK });
    expect([first.source, first.secret]).toEqual(['client', webhookSecret(KEY, 'agrosoft')]);
    expect((await u.ops.set(client(), { url: HOOK })).secret).toBeUndefined();
    expect((await u.ops.read(client())).secret).toBeUndefined();
    const r = await u.ops.rotate(client(), 2);
    expect([r.secret, r.overlapUntil]).toEqual([webhookSecret(KEY, 'agrosoft', 1), T + 2 * H]);
    u.at(2 * H);
    expect((await u.ops.read(client())).overlapUntil).toBeNull();
  });

  it("answer the operator's webhook until the client sets its own, which keeps the operator's secret", async () => {
    const u = useCases();
    expect(await u.ops.read(client(HOOK))).toMatchObject({ source: 'operator', subscription: { generation: 0 } });
    expect((await u.ops.rotate(client(HOOK), 1)).subscription).toMatchObject({ url: HOOK, generation: 1 });
    expect((await u.ops.set(client(HOOK), { url: `${HOOK}/v2` })).subscription.generation).toBe(1);
  });

  it('refuse a client with no webhook, a gateway with no key, and http off this machine', async () => {
    const u = useCases();
    for (const p of [u.ops.read(client()), u.ops.rotate(client(), 1), u.ops.ping(client())])
      expect(await codes(p)).toEqual([['WEBHOOK_NOT_SET', '']]);
    expect(u.subs.size).toBe(0);
    const off = useCases({ key: undefined });
    expect(await codes(off.ops.set(client(), { url: HOOK }))).toEqual([['WEBHOOKS_UNAVAILABLE', '']]);
    expect(await codes(u.ops.set(client(), { url: 'http://127.0.0.1:7083/hooks/agrosoft' }))).toEqual([
      ['INVALID_VALUE', 'body.url'],
    ]);
    const local = useCases({ local: true });
    expect(await codes(local.ops.set(client(), { url: 'http://127.0.0.1:7083/hooks/agrosoft' }))).toEqual([]);
  });

  it('ping with every secret that signs now, answer what the receiver said, and journal it', async () => {
    const failing = useCases({ outcome: 'answered HTTP 500' });
    await failing.ops.set(client(), { url: HOOK });
    await failing.ops.rotate(client(), 1);
    const answer = await failing.ops.ping(client());
    expect(answer).toMatchObject({ outcome: 'failed', detail: 'answered HTTP 500' });
    expect(failing.tries.map((t) => [t.url, t.generations, JSON.parse(t.body).type])).toEqual([
      [HOOK, [1, 0], 'webhook.ping'],
    ]);
    expect(await failing.ops.deliveries(client(), 5)).toEqual([
      expect.objectContaining({
        eventId: answer.eventId,
        state: 'abandoned',
        jobId: null,
        lastError: 'answered HTTP 500',
      }),
    ]);
    const refused = useCases({ outcome: { refused: '10.0.0.5 is private' } });
    await refused.ops.set(client(), { url: HOOK });
    expect((await refused.ops.ping(client())).outcome).toBe('refused');
  });
});

describe('a delivery follows the settings its client has at the try', () => {
  const event = jobEvent({ jobId: 7, status: 'FinalizadoCompleto', accepted: 1, total: 1 }, 'outcome', T);
  const [message] = deliveryMessages({ jobId: 7, correlationId: 'c' }, event, [{ clientId: 'agrosoft', url: HOOK }]);

  function deps(own: WebhookSubscription | null, journalFails = false) {
    const s = recordingSender();
    const journal: DeliveryEntry[] = [];
    const logged: Record<string, unknown>[] = [];
    const d: DeliveryDeps = {
      sender: s.sender,
      queue: { send: async () => undefined },
      slots: { take: async () => async () => undefined },
      now: () => T,
      log: createLogger((_l, line) => void logged.push(JSON.parse(line) as Record<string, unknown>)),
      subscriptions: { find: async () => own },
      journal: {
        write: async (_c, e) => {
          if (journalFails) throw new Error('storage down');
          journal.push(e);
        },
      },
    };
    return { d, tries: s.tries, journal, logged };
  }

  it("goes to the client's URL now, signed with each secret that signs now, and is journaled", async () => {
    const own = rotated(withAddress(null, { url: `${HOOK}/v2` }, T), 1, T);
    const x = deps(own);
    expect(await deliverWebhook(x.d, message)).toBe('delivered');
    expect(x.tries.map((t) => [t.url, t.generations])).toEqual([[`${HOOK}/v2`, [1, 0]]]);
    expect(x.journal).toEqual([
      expect.objectContaining({ eventId: 'evt_job_7_outcome', type: 'job.finished', jobId: 7, state: 'delivered' }),
    ]);
  });

  it('goes where it was handed, with the first secret, to a client with no settings of its own', async () => {
    const x = deps(null);
    await deliverWebhook(x.d, message);
    expect(x.tries.map((t) => [t.url, t.generations])).toEqual([[HOOK, [0]]]);
  });

  it('is not sent to a client that chose not to hear its type', async () => {
    const x = deps(withAddress(null, { url: HOOK, events: ['job.reconciled'] }, T));
    expect(await deliverWebhook(x.d, message)).toBe('skipped');
    expect([x.tries, x.journal]).toEqual([[], []]);
    expect(x.logged.map((l) => l.event)).toEqual(['webhook.skipped']);
  });

  it('is delivered all the same when its journal cannot be written, which the operators are told', async () => {
    const x = deps(defaultSubscription(HOOK), true);
    expect(await deliverWebhook(x.d, message)).toBe('delivered');
    expect(x.logged.map((l) => l.event).sort()).toEqual(['job.problem', 'webhook.sent']);
  });
});

describe("a farm's recipients", () => {
  it("are its clients at their own webhook, else their operator's, and none with neither", async () => {
    const own = new Map([['b', withAddress(null, { url: `${HOOK}/b` }, T)]]);
    const found = await recipientsAmong(
      [
        { clientId: 'a', url: `${HOOK}/a` },
        { clientId: 'b', url: '' },
        { clientId: 'c', url: '' },
      ],
      { find: async (id) => own.get(id) ?? null },
    );
    expect(found).toEqual([
      { clientId: 'a', url: `${HOOK}/a` },
      { clientId: 'b', url: `${HOOK}/b` },
    ]);
  });
});
