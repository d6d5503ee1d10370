import { z } from 'zod';
import { Logger } from '../log/logger';
import type { DeliveryEntry } from './delivery-log';
import {
  afterTry,
  eventTypeOf,
  GIVE_UP_AFTER_MS,
  retryDelayMs,
  WebhookDelivery,
  webhookDeliverySchema,
} from './webhook-event';
import { DELIVERY_TIMEOUT_MS, WebhookPort } from './webhook-sender';
import { hears, signingGenerations, WebhookSubscription } from './webhook-subscription';

/**
 * Webhook deliveries on a path of their own (issue 36): the export worker hands each event to the delivery queue, one
 * message per client to tell, and the delivery function sends it. A receiver that hangs then holds a delivery's slot,
 * for at most DELIVERY_TIMEOUT_MS, and never an export's; and since a client may have at most
 * MAX_DELIVERIES_PER_CLIENT deliveries running in a process, it cannot hold all of that function's slots either.
 * A try that fails puts the message back on the queue, hidden for its backoff (30 s doubling to hourly, for 25 hours):
 * the message carries the delivery's state, so no row is read or written to retry it.
 */

/** One event for one client: who, where (the URL when the event was handed over), and the delivery's state. */
export const webhookMessageSchema = z.object({
  jobId: z.number().int().positive(),
  clientId: z.string().min(1),
  url: z.string().min(1),
  /** The correlation id of the request that started the job: the delivery's log events carry it. */
  correlationId: z.string().default(''),
  delivery: webhookDeliverySchema,
});
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;

/** A client of the job's farm with a webhook: each hears of the job, signed with its own secret. */
export interface Recipient {
  clientId: string;
  url: string;
}

/**
 * Who of a farm's clients hears of its jobs: each at the webhook it set itself (webhook-subscription.ts), else at its
 * operator's ('' none), in the order given; a client with neither is not told.
 */
export async function recipientsAmong(
  clients: readonly Recipient[],
  subscriptions: { find(clientId: string): Promise<WebhookSubscription | null> },
): Promise<Recipient[]> {
  const own = await Promise.all(clients.map((c) => subscriptions.find(c.clientId)));
  return clients.map((c, i) => ({ clientId: c.clientId, url: own[i]?.url ?? c.url })).filter((r) => r.url !== '');
}

/** The delivery queue: a message sent now, or hidden for `delayMs` first. */
interface DeliveryQueue {
  send(message: WebhookMessage, delayMs?: number): Promise<void>;
}

/** The messages that hand one event to every recipient. */
export function deliveryMessages(
  job: { jobId: number; correlationId: string },
  event: WebhookDelivery,
  recipients: readonly Recipient[],
): WebhookMessage[] {
  return recipients.map((r) => ({
    jobId: job.jobId,
    clientId: r.clientId,
    url: r.url,
    correlationId: job.correlationId,
    delivery: event,
  }));
}

/**
 * How many deliveries of one client may run at once, across every instance: a client whose receiver hangs holds at
 * most this many of the delivery function's slots, each for at most DELIVERY_TIMEOUT_MS, and the rest serve everyone
 * else (the function scales out on its queue's length, each instance taking a batch at a time).
 */
export const MAX_DELIVERIES_PER_CLIENT = 2;

/** A delivery over its client's cap comes back after this long: by then a try of that client has ended, one way or another. */
export const DEFERRED_MS = DELIVERY_TIMEOUT_MS + 5_000;

/** The running deliveries' slots, per client (slot-store.ts keeps them in a table, shared by every instance). */
export interface ClientSlots {
  /** One of the client's slots, as the function that frees it; null when the client holds them all. */
  take(clientId: string): Promise<(() => Promise<void>) | null>;
}

export interface DeliveryDeps {
  sender: WebhookPort;
  queue: DeliveryQueue;
  slots: ClientSlots;
  now: () => number;
  log?: Logger;
  /**
   * Each client's own settings (webhook-subscription.ts), read at every try: the URL, events and secrets it has now,
   * not when the event was handed over. Null, or no reader: its operator's webhook, every event, its first secret.
   */
  subscriptions?: { find(clientId: string): Promise<WebhookSubscription | null> };
  /** Where each try is written for the client to read (GET /v1/webhooks/deliveries). */
  journal?: { write(clientId: string, entry: DeliveryEntry): Promise<void> };
}

/**
 * What became of a delivery message: tried (and the delivery's new state), put back untried, or not sent because the
 * client chose not to hear events of its type.
 */
export type DeliveryStep = WebhookDelivery['state'] | 'deferred' | 'skipped';

/**
 * One delivery message: one signed try, unless the client already has its cap of deliveries running (then the message
 * goes back untried, hidden for DEFERRED_MS). A failed try goes back hidden for its backoff; delivered and abandoned
 * ones are done. Only putting a message back can throw (storage): the queue then delivers this one again.
 */
export async function deliverWebhook(deps: DeliveryDeps, m: WebhookMessage): Promise<DeliveryStep> {
  const ids = { jobId: m.jobId, eventId: m.delivery.id, clientId: m.clientId };
  if (m.delivery.state !== 'pending') return m.delivery.state;
  const own = (await deps.subscriptions?.find(m.clientId)) ?? null;
  const type = eventTypeOf(m.delivery.body);
  if (own && !hears(own, type)) {
    deps.log?.event('webhook.skipped', { ...ids, type });
    return 'skipped';
  }
  const url = own?.url ?? m.url;
  const release = await deps.slots.take(m.clientId);
  if (!release) {
    await deps.queue.send(m, DEFERRED_MS);
    deps.log?.event('webhook.deferred', { ...ids, delayMs: DEFERRED_MS }, 'warn');
    return 'deferred';
  }
  const started = deps.now();
  let next: WebhookDelivery;
  try {
    const outcome = await deps.sender.deliver(
      {
        url,
        clientId: m.clientId,
        eventId: m.delivery.id,
        body: m.delivery.body,
        generations: own ? signingGenerations(own, started) : [0],
      },
      started,
    );
    next = afterTry(m.delivery, outcome, deps.now());
  } finally {
    await release();
  }
  await journal(deps, m, { url, type, next, started });
  const outcome = next.state === 'pending' ? 'failed' : next.state;
  deps.log?.event(
    'webhook.sent',
    {
      ...ids,
      outcome,
      attempts: next.attempts,
      durationMs: deps.now() - started,
      ...(next.lastError ? { detail: next.lastError } : {}),
    },
    outcome === 'delivered' ? 'info' : 'warn',
  );
  if (next.state === 'pending') await deps.queue.send({ ...m, delivery: next }, Math.max(0, next.due - deps.now()));
  return next.state;
}

/**
 * Writes the try where the client reads its deliveries. Its failure is logged and the delivery goes on: the journal
 * is for reading, and failing the message for it would send the event again.
 */
async function journal(
  deps: Pick<DeliveryDeps, 'journal' | 'now' | 'log'>,
  m: WebhookMessage,
  t: { url: string; type: string; next: WebhookDelivery; started: number },
): Promise<void> {
  try {
    await deps.journal?.write(m.clientId, {
      eventId: m.delivery.id,
      type: t.type,
      jobId: m.jobId,
      url: t.url,
      state: t.next.state,
      attempts: t.next.attempts,
      lastError: t.next.lastError,
      createdAt: m.delivery.createdAt,
      lastTryAt: t.started,
    });
  } catch (e) {
    deps.log?.event(
      'job.problem',
      { jobId: m.jobId, detail: `${m.delivery.id} to ${m.clientId} not journaled: ${(e as Error).message}` },
      'warn',
    );
  }
}

/**
 * A delivery message the queue gave up on (every try to put it back failed, the storage being out of reach): put
 * back once more, hidden for the backoff its next try would have, while its 25 hours last; abandoned after them.
 */
async function redriveWebhook(deps: Pick<DeliveryDeps, 'queue' | 'now' | 'log'>, m: WebhookMessage) {
  if (m.delivery.state !== 'pending') return;
  const action = deps.now() - m.delivery.createdAt < GIVE_UP_AFTER_MS ? 'redriven' : 'abandoned';
  const ids = { jobId: m.jobId, eventId: m.delivery.id, clientId: m.clientId, attempts: m.delivery.attempts };
  // Warned either way: a message reached a poison queue only because the storage failed five times running.
  deps.log?.event('webhook.poisoned', { ...ids, action }, 'warn');
  if (action === 'redriven') {
    await deps.queue.send(m, retryDelayMs(m.delivery.attempts + 1));
    return;
  }
  deps.log?.event(
    'webhook.sent',
    {
      jobId: m.jobId,
      eventId: m.delivery.id,
      clientId: m.clientId,
      outcome: 'abandoned',
      attempts: m.delivery.attempts,
      durationMs: 0,
      detail: 'given up from the poison queue after 25 hours',
    },
    'warn',
  );
}

/** The delivery messages the queue gave up on (the poison queue): each taken, and removed once dealt with. */
export interface PoisonedDeliveries {
  take(max: number, hideMs: number): Promise<{ content: unknown; remove(): Promise<void> }[]>;
}

/**
 * Puts the poisoned delivery messages back on the delivery queue (redriveWebhook), a batch per call: the sweeper's
 * timer calls it, so a delivery stranded by a storage fault resumes by itself. A message that is no delivery is logged
 * and removed. Answers how many were taken.
 */
export async function redrivePoisoned(
  deps: Pick<DeliveryDeps, 'queue' | 'now' | 'log'> & { poison: PoisonedDeliveries },
): Promise<number> {
  const taken = await deps.poison.take(32, 60_000);
  for (const t of taken) {
    const m = webhookMessageSchema.safeParse(t.content);
    if (m.success) await redriveWebhook(deps, m.data);
    else deps.log?.event('message.ignored', { detail: JSON.stringify(t.content) }, 'error');
    await t.remove();
  }
  return taken.length;
}
