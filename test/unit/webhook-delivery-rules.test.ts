import { createLogger } from '../../shared/log/logger';
import {
  ClientSlots,
  DEFERRED_MS,
  deliverWebhook,
  DeliveryDeps,
  deliveryMessages,
  MAX_DELIVERIES_PER_CLIENT,
  redrivePoisoned,
  WebhookMessage,
} from '../../shared/notify/webhook-delivery';
import { GIVE_UP_AFTER_MS, jobEvent } from '../../shared/notify/webhook-event';
import { TryOutcome, WebhookPort } from '../../shared/notify/webhook-sender';

/**
 * Issue 36 item 2, the delivery's rules without storage or HTTP: a message per client, one try per message, a failed
 * try put back hidden for its backoff, a refused URL given up at once, a client over its cap put back untried, and a
 * poisoned message put back while its 25 hours last. Time is the test's; the sender answers when the test says.
 */

const T = Date.UTC(2026, 4, 14, 10, 0, 0);
const event = jobEvent({ jobId: 7, status: 'FinalizadoCompleto', accepted: 1, total: 1 }, 'outcome', T);

function message(clientId = 'agrosoft'): WebhookMessage {
  return deliveryMessages({ jobId: 7, correlationId: 'c-1' }, event, [{ clientId, url: 'https://erp.example/h' }])[0];
}

/** A sender whose every try waits until the test answers it, in the order the tries began. */
function heldSender() {
  const tries: { clientId: string; answer: (o: TryOutcome) => void }[] = [];
  const sender: WebhookPort = {
    deliver: ({ clientId }) => new Promise((answer) => tries.push({ clientId, answer })),
  };
  return { sender, tries };
}

/** Each client's slots in memory, as the table keeps them across instances (slot-store.ts, tested on Azurite). */
function memorySlots(max = MAX_DELIVERIES_PER_CLIENT): ClientSlots {
  const running = new Map<string, number>();
  return {
    take: async (clientId) => {
      const n = running.get(clientId) ?? 0;
      if (n >= max) return null;
      running.set(clientId, n + 1);
      return async () => void running.set(clientId, (running.get(clientId) ?? 1) - 1);
    },
  };
}

/** Lets every promise already settled run its callbacks: the tries the test started reach the sender. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function harness(sender: WebhookPort, now = T) {
  let t = now;
  const queued: [WebhookMessage, number | undefined][] = [];
  const logged: Record<string, unknown>[] = [];
  const deps: DeliveryDeps = {
    sender,
    queue: { send: async (m, delayMs) => void queued.push([m, delayMs]) },
    slots: memorySlots(),
    now: () => t,
    log: createLogger((_level, line) => void logged.push(JSON.parse(line) as Record<string, unknown>)),
  };
  return { deps, queued, logged, at: (ms: number) => (t = now + ms) };
}

const answering = (outcome: TryOutcome): WebhookPort => ({ deliver: async () => outcome });

describe('a delivery message', () => {
  it('is one per client of the farm, each the same event', () => {
    const messages = deliveryMessages({ jobId: 7, correlationId: '' }, event, [
      { clientId: 'agrosoft', url: 'https://a.example/h' },
      { clientId: 'campo-digital', url: 'https://c.example/h' },
    ]);
    expect(messages.map((m) => [m.clientId, m.url, m.delivery.id, m.delivery.body])).toEqual([
      ['agrosoft', 'https://a.example/h', 'evt_job_7_outcome', event.body],
      ['campo-digital', 'https://c.example/h', 'evt_job_7_outcome', event.body],
    ]);
  });

  it('answered 2xx is done: nothing is put back', async () => {
    const h = harness(answering(true));
    expect(await deliverWebhook(h.deps, message())).toBe('delivered');
    expect(h.queued).toEqual([]);
    expect(h.logged).toEqual([
      expect.objectContaining({ event: 'webhook.sent', clientId: 'agrosoft', outcome: 'delivered', attempts: 1 }),
    ]);
  });

  it('that failed is put back hidden for its backoff, carrying its tries, until the receiver takes it', async () => {
    const h = harness(answering('answered HTTP 503'));
    expect(await deliverWebhook(h.deps, message())).toBe('pending');
    const [[again, delay]] = h.queued;
    expect([delay, again.delivery.attempts, again.delivery.lastError]).toEqual([30_000, 1, 'answered HTTP 503']);
    h.at(30_000);
    expect(await deliverWebhook(h.deps, again)).toBe('pending');
    expect([h.queued[1][1], h.queued[1][0].delivery.attempts]).toEqual([60_000, 2]);
    h.deps.sender = answering(true);
    expect(await deliverWebhook(h.deps, h.queued[1][0])).toBe('delivered');
    expect(h.queued).toHaveLength(2);
  });

  it('is given up once it has been tried for 25 hours', async () => {
    const h = harness(answering('not delivered: TimeoutError'));
    h.at(GIVE_UP_AFTER_MS);
    expect(await deliverWebhook(h.deps, message())).toBe('abandoned');
    expect(h.queued).toEqual([]);
    expect(h.logged[0]).toMatchObject({ outcome: 'abandoned', detail: 'not delivered: TimeoutError' });
  });

  it('to a refused URL is given up at once, never put back', async () => {
    const h = harness(answering({ refused: '10.0.0.5 is private' }));
    expect(await deliverWebhook(h.deps, message())).toBe('abandoned');
    expect(h.queued).toEqual([]);
    expect(h.logged[0]).toMatchObject({ outcome: 'abandoned', detail: 'refused: 10.0.0.5 is private' });
  });

  it("over its client's cap is put back untried, hidden a while, while other clients' deliveries run", async () => {
    const { sender, tries } = heldSender();
    const h = harness(sender);
    const running = Array.from({ length: MAX_DELIVERIES_PER_CLIENT }, () => deliverWebhook(h.deps, message('slow')));
    await settle();
    expect(await deliverWebhook(h.deps, message('slow'))).toBe('deferred');
    expect(h.queued.map(([m, delay]) => [m.clientId, m.delivery.attempts, delay])).toEqual([['slow', 0, DEFERRED_MS]]);
    expect(h.logged).toEqual([expect.objectContaining({ event: 'webhook.deferred', clientId: 'slow' })]);
    // Another client is not held back by the slow one's cap.
    const other = deliverWebhook(h.deps, message('agrosoft'));
    await settle();
    expect(tries.map((t) => t.clientId)).toEqual([...running.map(() => 'slow'), 'agrosoft']);
    tries[2].answer(true);
    expect(await other).toBe('delivered');
    // A slow try ending frees its slot.
    tries[0].answer('not delivered: TimeoutError');
    expect(await running[0]).toBe('pending');
    const next = deliverWebhook(h.deps, message('slow'));
    await settle();
    expect(tries).toHaveLength(4);
    tries[3].answer(true);
    tries[1].answer(true);
    expect([await next, await running[1]]).toEqual(['delivered', 'delivered']);
  });

  it('from the poison queue is put back while its 25 hours last, given up after them, and removed either way', async () => {
    const h = harness(answering(true));
    const tried = { ...message(), delivery: { ...event, attempts: 3 } };
    const poisoned = (contents: unknown[]) => {
      const removed: unknown[] = [];
      const taken = contents.map((content) => ({ content, remove: async () => void removed.push(content) }));
      return { removed, poison: { take: async () => taken.splice(0) } };
    };
    const first = poisoned([tried, 'not a delivery']);
    expect(await redrivePoisoned({ ...h.deps, ...first })).toBe(2);
    expect(h.queued).toEqual([[tried, 240_000]]);
    expect(first.removed).toEqual([tried, 'not a delivery']);
    // Each delivery found there is warned of, for the poison alert (infra/monitoring/poison-messages.kql).
    expect(h.logged).toEqual([
      expect.objectContaining({ event: 'webhook.poisoned', action: 'redriven', attempts: 3 }),
      expect.objectContaining({ event: 'message.ignored' }),
    ]);
    h.at(GIVE_UP_AFTER_MS);
    const late = poisoned([tried]);
    expect(await redrivePoisoned({ ...h.deps, ...late })).toBe(1);
    expect([h.queued.length, late.removed]).toEqual([1, [tried]]);
    expect(h.logged.at(-2)).toMatchObject({ event: 'webhook.poisoned', action: 'abandoned', attempts: 3 });
    expect(h.logged.at(-1)).toMatchObject({ event: 'webhook.sent', outcome: 'abandoned', attempts: 3 });
    expect(await redrivePoisoned({ ...h.deps, ...late })).toBe(0);
  });
});
