import { JobEventType, JOB_EVENT_TYPES } from './webhook-event';

/**
 * A client's own webhook settings, as it sets them over the API (PUT /v1/webhooks, docs/interface.md, "Webhooks"):
 * where its events go, which it hears, and which of its signing secrets sign them. A secret is never stored: it is
 * derived from the gateway's signing key, the client id and its generation (webhook-secret.ts), so a rotation stores
 * only numbers. Without settings of its own, a client hears every event at the webhook its operator registered, signed
 * with its first secret (generation 0).
 */
export interface WebhookSubscription {
  url: string;
  /** The events it hears; a ping (POST /v1/webhooks/test) goes whatever it chose. */
  events: JobEventType[];
  /** The secret that signs every delivery. */
  generation: number;
  /** The secret it replaced, which signs beside it until `until` (epoch ms): the rotation's overlap. */
  previous: { generation: number; until: number } | null;
  /** Epoch ms of the last change, for the client's view. */
  updatedAt: number;
}

/** A client may keep its old secret verifying for a week at most: long enough for a release cycle, no longer. */
export const MAX_OVERLAP_HOURS = 168;

/** What a client has before it sets anything: its operator's webhook (or none), every event, generation 0. */
export function defaultSubscription(url: string): WebhookSubscription {
  return { url, events: [...JOB_EVENT_TYPES], generation: 0, previous: null, updatedAt: 0 };
}

/** New settings for a URL and events (default: every event); the secrets are the client's as they were. */
export function withAddress(
  current: WebhookSubscription | null,
  change: { url: string; events?: readonly JobEventType[] | undefined },
  nowMs: number,
): WebhookSubscription {
  const base = current ?? defaultSubscription(change.url);
  const events = JOB_EVENT_TYPES.filter((t) => (change.events ?? JOB_EVENT_TYPES).includes(t));
  return { ...base, url: change.url, events, updatedAt: nowMs };
}

/**
 * A new secret, the one it replaces verifying for `overlapHours` more (0: it stops now, for a secret that leaked).
 * Rotating again while an overlap runs keeps the secret from before that overlap as the old one, not the one in
 * between: a client that lost the first rotation's answer (a time-out) still holds only the older secret, and that one
 * must go on verifying. The one in between stops at once; nobody may have configured it yet.
 */
export function rotated(current: WebhookSubscription, overlapHours: number, nowMs: number): WebhookSubscription {
  const older = current.previous && current.previous.until > nowMs ? current.previous.generation : current.generation;
  return {
    ...current,
    generation: current.generation + 1,
    previous: { generation: older, until: nowMs + overlapHours * 3_600_000 },
    updatedAt: nowMs,
  };
}

/** The generations whose secrets sign a delivery now: the current one, and the old one while its overlap runs. */
export function signingGenerations(s: WebhookSubscription, nowMs: number): number[] {
  return s.previous && s.previous.until > nowMs ? [s.generation, s.previous.generation] : [s.generation];
}

/** Whether the client hears an event of this type: a type it did not choose is not sent; a ping always is. */
export function hears(s: WebhookSubscription, type: string): boolean {
  return !(JOB_EVENT_TYPES as readonly string[]).includes(type) || (s.events as readonly string[]).includes(type);
}
