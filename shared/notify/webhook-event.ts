import { z } from 'zod';
import { checkMove, MoveTable } from '../domain/state-machine';

/**
 * The events the gateway POSTs to a client's webhook, and where each delivery stands. An event is kept, byte for byte,
 * with the job it tells of (the job's status row, `webhooks`) and in each of its delivery messages (one per client
 * of the farm, webhook-delivery.ts), so every try sends the same body under the same id: a receiver that sees an id
 * twice (delivery is at least once) ignores the repeat.
 */

/** Why an event is sent: the job settled, or (a failed job) every outcome it had left unknown is known now. */
const EVENT_TYPES = { outcome: 'job.finished', reconciled: 'job.reconciled' } as const;
export type EventPurpose = keyof typeof EVENT_TYPES;

/** The job events a client may subscribe to (webhook-subscription.ts); a test ping is sent whatever it chose. */
export const JOB_EVENT_TYPES = Object.values(EVENT_TYPES);
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** Where a delivery stands: tried until it is answered 2xx, or until it has been tried for GIVE_UP_AFTER_MS. */
const deliveryStates = ['pending', 'delivered', 'abandoned'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const DELIVERY_TRANSITIONS = {
  pending: ['pending', 'delivered', 'abandoned'],
  delivered: [],
  abandoned: [],
} as const satisfies MoveTable<DeliveryState>;

export const webhookDeliverySchema = z.object({
  /** The event id: the same on every try. */
  id: z.string(),
  /** The event as sent (JSON text). */
  body: z.string(),
  state: z.enum(deliveryStates),
  attempts: z.number().int().nonnegative(),
  /** Epoch ms of the next try (pending), of the event's creation otherwise unchanged. */
  due: z.number(),
  /** Epoch ms when the event was made: tries stop GIVE_UP_AFTER_MS later. */
  createdAt: z.number(),
  /** The last try's failure, for operators ('' none). */
  lastError: z.string(),
  /**
   * On the job's row: whether the event's delivery messages are on the delivery queue (the worker hands them over
   * once; until then the job's watch row brings it back to try again). Rows written before deliveries had a queue of
   * their own have none: their pending events are handed over at the job's next look.
   */
  queued: z.boolean().default(false),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A receiver that is down is tried for a day and an hour: longer than any planned maintenance of an ERP. */
export const GIVE_UP_AFTER_MS = 25 * 3_600_000;

/** After the n-th failed try (from 1), the next one comes 30 s later, doubling up to an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * The event a settled job's farm's clients are told of: the job, its farm (a client sharing the farm did not start it,
 * and reads the farm's records to see what changed), its status, and how many records SIEX accepted and did not.
 */
export function jobEvent(
  job: { jobId: number; agrifarmId?: string; status: string; accepted: number; total: number },
  purpose: EventPurpose,
  nowMs: number,
): WebhookDelivery {
  const id = `evt_job_${job.jobId}_${purpose}`;
  const body = JSON.stringify({
    id,
    type: EVENT_TYPES[purpose],
    created: new Date(nowMs).toISOString(),
    data: {
      jobId: job.jobId,
      ...(job.agrifarmId ? { agrifarmId: job.agrifarmId } : {}),
      status: job.status,
      ok: job.accepted,
      errors: job.total - job.accepted,
    },
  });
  return { id, body, state: 'pending', attempts: 0, due: nowMs, createdAt: nowMs, lastError: '', queued: false };
}

/** The type an event's body names ('' when it names none): what a client's choice of events is judged by. */
export function eventTypeOf(body: string): string {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : '';
  } catch {
    return '';
  }
}

/** The event POST /v1/webhooks/test sends: the job events' shape, so a receiver's parsing and verifying are tried. */
export function pingEvent(id: string, clientId: string, nowMs: number): { id: string; type: string; body: string } {
  const type = 'webhook.ping';
  return { id, type, body: JSON.stringify({ id, type, created: new Date(nowMs).toISOString(), data: { clientId } }) };
}

/**
 * A delivery after one try: delivered; or due again after its backoff; or abandoned, once it has been tried long enough
 * or at once when its URL was refused (webhook-address.ts: trying again cannot make an address public).
 */
export function afterTry(
  d: WebhookDelivery,
  outcome: true | string | { refused: string },
  nowMs: number,
): WebhookDelivery {
  const attempts = d.attempts + 1;
  const refused = typeof outcome === 'object';
  const state: DeliveryState =
    outcome === true ? 'delivered' : refused || nowMs - d.createdAt >= GIVE_UP_AFTER_MS ? 'abandoned' : 'pending';
  checkMove('webhook delivery', DELIVERY_TRANSITIONS, d.state, state);
  if (outcome === true) return { ...d, state, attempts, lastError: '' };
  const why = refused ? `refused: ${outcome.refused}` : outcome;
  return { ...d, state, attempts, due: nowMs + retryDelayMs(attempts), lastError: why.slice(0, 300) };
}
