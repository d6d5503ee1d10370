import { z } from 'zod';
import { deliverySchema, webhookSettingsSchema } from '../api/webhook-schemas';
import type { DeliveryEntry } from '../notify/delivery-log';
import type { WebhookSettings } from '../notify/webhook-settings';

/** The interface's answers about the caller's webhook (docs/interface.md, "Webhooks"). */

const iso = (ms: number) => new Date(ms).toISOString();

/** A client's settings as GET, PUT and rotate answer them; the secret only where the use case shows it. */
export function settingsView(s: WebhookSettings): z.output<typeof webhookSettingsSchema> {
  const { subscription: sub } = s;
  return {
    url: sub.url,
    events: sub.events,
    source: s.source,
    secretGeneration: sub.generation,
    previousSecretValidUntil: s.overlapUntil === null ? null : iso(s.overlapUntil),
    updated: sub.updatedAt > 0 ? iso(sub.updatedAt) : null,
    ...(s.secret ? { secret: s.secret } : {}),
  };
}

export function deliveryView(d: DeliveryEntry): z.output<typeof deliverySchema> {
  return {
    eventId: d.eventId,
    type: d.type,
    jobId: d.jobId,
    url: d.url,
    state: d.state,
    attempts: d.attempts,
    lastError: d.lastError === '' ? null : d.lastError,
    created: iso(d.createdAt),
    lastTry: iso(d.lastTryAt),
  };
}
