import { randomUUID } from 'node:crypto';
import { DomainError, violation } from '../domain/errors';
import type { DeliveryEntry } from './delivery-log';
import { AddressPolicy, urlRefusal } from './webhook-address';
import { JobEventType, pingEvent } from './webhook-event';
import type { WebhookPort } from './webhook-sender';
import { webhookSecret } from './webhook-secret';
import {
  defaultSubscription,
  rotated,
  signingGenerations,
  withAddress,
  WebhookSubscription,
} from './webhook-subscription';

/**
 * A client's webhook, set, tried and rotated by the client itself over the API (issue 38 item 5; docs/interface.md,
 * "Webhooks"): the use cases behind /v1/webhooks. Each answers the domain's values; the edge shapes them.
 */
export interface WebhookSettingsDeps {
  subscriptions: {
    find(clientId: string): Promise<WebhookSubscription | null>;
    change(
      clientId: string,
      change: (current: WebhookSubscription | null) => WebhookSubscription,
    ): Promise<{ before: WebhookSubscription | null; after: WebhookSubscription }>;
  };
  journal: {
    write(clientId: string, entry: DeliveryEntry): Promise<void>;
    last(clientId: string, limit: number): Promise<DeliveryEntry[]>;
  };
  /** WEBHOOK_SIGNING_KEY: without it nothing can be signed, so no webhook can be set or tried. */
  signingKey: string | undefined;
  /** The sender, built on first use (a ping is the only request that sends). */
  sender: () => Promise<WebhookPort>;
  policy: AddressPolicy;
  now: () => number;
}

/** The caller, as far as its webhook goes: its id, and the webhook its operators registered ('' none). */
interface Caller {
  id: string;
  webhookUrl: string;
}

/** A client's settings, and its secret when this answer is the one that shows it (set the first time, rotated). */
export interface WebhookSettings {
  subscription: WebhookSubscription;
  /** Whose settings these are: the client's own (set over the API), or its operator's registration. */
  source: 'client' | 'operator';
  /** While a rotation's overlap runs, when the old secret stops signing (epoch ms); null otherwise. */
  overlapUntil: number | null;
  secret?: string;
}

export interface PingOutcome {
  eventId: string;
  outcome: 'delivered' | 'failed' | 'refused';
  detail: string;
}

const notSet = () =>
  new DomainError('the client has no webhook', [
    violation('WEBHOOK_NOT_SET', '', 'no webhook is set for this client: set one with PUT /v1/webhooks'),
  ]);

export function webhookSettings(deps: WebhookSettingsDeps) {
  const signingKey = () => {
    if (!deps.signingKey)
      throw new DomainError('webhooks are off', [
        violation('WEBHOOKS_UNAVAILABLE', '', 'this gateway has no webhook signing key (WEBHOOK_SIGNING_KEY)'),
      ]);
    return deps.signingKey;
  };
  /** The client's settings: its own, else its operator's webhook; null when it has neither. */
  const settings = (subscription: WebhookSubscription, source: WebhookSettings['source']): WebhookSettings => {
    const until = subscription.previous?.until ?? 0;
    return { subscription, source, overlapUntil: until > deps.now() ? until : null };
  };
  /** What the client has before it sets anything: its operator's webhook, or none. */
  const operatorSubscription = (client: Caller) => (client.webhookUrl ? defaultSubscription(client.webhookUrl) : null);
  const current = async (client: Caller): Promise<WebhookSettings | null> => {
    const own = await deps.subscriptions.find(client.id);
    if (own) return settings(own, 'client');
    const operator = operatorSubscription(client);
    return operator ? settings(operator, 'operator') : null;
  };
  const secretOf = (client: Caller, s: WebhookSubscription) => webhookSecret(signingKey(), client.id, s.generation);

  return {
    async read(client: Caller): Promise<WebhookSettings> {
      const found = await current(client);
      if (!found) throw notSet();
      return found;
    },

    /**
     * Sets the URL and the events (default: every one). The answer shows the secret the first time the client sets
     * its webhook, and never again: a client that lost it rotates.
     */
    async set(client: Caller, change: { url: string; events?: JobEventType[] | undefined }): Promise<WebhookSettings> {
      signingKey();
      const refused = urlRefusal(new URL(change.url), deps.policy);
      if (refused)
        throw new DomainError('the webhook URL is refused', [violation('INVALID_VALUE', 'body.url', refused)]);
      const { before, after } = await deps.subscriptions.change(client.id, (own) =>
        withAddress(own ?? operatorSubscription(client), change, deps.now()),
      );
      return { ...settings(after, 'client'), ...(before ? {} : { secret: secretOf(client, after) }) };
    },

    /** A new secret, shown in this answer only; the old one signs beside it for `overlapHours`. */
    async rotate(client: Caller, overlapHours: number): Promise<WebhookSettings & { secret: string }> {
      signingKey();
      const { after } = await deps.subscriptions.change(client.id, (own) => {
        const base = own ?? operatorSubscription(client);
        if (!base) throw notSet();
        return rotated(base, overlapHours, deps.now());
      });
      return { ...settings(after, 'client'), secret: secretOf(client, after) };
    },

    /** One signed ping to the client's webhook now, answered with what the receiver said; written to its deliveries. */
    async ping(client: Caller): Promise<PingOutcome> {
      signingKey();
      const found = await current(client);
      if (!found) throw notSet();
      const started = deps.now();
      const event = pingEvent(`evt_ping_${randomUUID()}`, client.id, started);
      const s = found.subscription;
      const outcome = await (
        await deps.sender()
      ).deliver(
        {
          url: s.url,
          clientId: client.id,
          eventId: event.id,
          body: event.body,
          generations: signingGenerations(s, started),
        },
        started,
      );
      const answer: PingOutcome =
        outcome === true
          ? { eventId: event.id, outcome: 'delivered', detail: 'answered 2xx' }
          : typeof outcome === 'string'
            ? { eventId: event.id, outcome: 'failed', detail: outcome }
            : { eventId: event.id, outcome: 'refused', detail: `refused: ${outcome.refused}` };
      await deps.journal.write(client.id, {
        eventId: event.id,
        type: event.type,
        jobId: null,
        url: s.url,
        state: answer.outcome === 'delivered' ? 'delivered' : 'abandoned',
        attempts: 1,
        lastError: answer.outcome === 'delivered' ? '' : answer.detail,
        createdAt: started,
        lastTryAt: deps.now(),
      });
      return answer;
    },

    /** The client's last deliveries, newest first. */
    deliveries(client: Caller, limit: number): Promise<DeliveryEntry[]> {
      return deps.journal.last(client.id, limit);
    },
  };
}

export type WebhookSettingsUseCases = ReturnType<typeof webhookSettings>;
