import { z } from 'zod';
import { webhookUrlSchema } from '../notify/webhook-address';
import { JOB_EVENT_TYPES } from '../notify/webhook-event';
import { MAX_OVERLAP_HOURS } from '../notify/webhook-subscription';

/** PUT /v1/webhooks: where the caller's job events go, and which. */
export const webhookBodySchema = z.strictObject({
  url: webhookUrlSchema.describe(
    'https to a public address (http only to this machine on a local stack); judged again after DNS at every delivery',
  ),
  events: z
    .array(z.enum(JOB_EVENT_TYPES))
    .min(1)
    .optional()
    .describe('the events to hear; default every one (a ping from POST /v1/webhooks/test goes whatever is chosen)'),
});

const secretField = z
  .string()
  .describe(
    'the signing secret (`whsec_…`), in this answer only: the first time the client sets its webhook, and at each rotation',
  );

export const webhookSettingsSchema = z.object({
  url: z.string().describe('where job events are POSTed, signed (header `Siex-Gateway-Signature`)'),
  events: z.array(z.enum(JOB_EVENT_TYPES)).describe('the events the client hears'),
  source: z
    .enum(['client', 'operator'])
    .describe(
      "`client`: set over this API; `operator`: the gateway operators' registration, until the client sets its own",
    ),
  secretGeneration: z
    .number()
    .int()
    .describe('which of the client’s secrets signs: 0 its first, raised by each rotation'),
  previousSecretValidUntil: z
    .string()
    .nullable()
    .describe('while a rotation’s overlap runs, when the old secret stops signing (ISO 8601, UTC); null otherwise'),
  updated: z.string().nullable().describe('when the client last changed these settings (ISO 8601, UTC)'),
  secret: secretField.optional(),
});

export const rotateBodySchema = z.strictObject({
  overlapHours: z
    .number()
    .int()
    .min(0)
    .max(MAX_OVERLAP_HOURS)
    .default(24)
    .describe(
      `hours the old secret keeps signing beside the new one (0 to ${MAX_OVERLAP_HOURS}; 0 stops it now, for a secret that leaked)`,
    ),
});

export const rotatedSchema = webhookSettingsSchema.extend({ secret: secretField });

export const pingSchema = z.object({
  eventId: z.string().describe('the ping’s event id (`evt_ping_…`), as in the `Siex-Gateway-Event-Id` header'),
  outcome: z
    .enum(['delivered', 'failed', 'refused'])
    .describe(
      '`delivered`: answered 2xx; `failed`: answered otherwise or not in 10 s; `refused`: the URL may not be reached',
    ),
  detail: z.string().describe('what the receiver answered, or why it was not reached'),
});

export const deliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('how many, newest first (1 to 100, default 50)'),
});

export const deliverySchema = z.object({
  eventId: z.string(),
  type: z.string().describe('`job.finished`, `job.reconciled` or `webhook.ping`'),
  jobId: z.number().int().nullable().describe('the export job the event tells of; null for a ping'),
  url: z.string().describe('where the last try went'),
  state: z
    .enum(['pending', 'delivered', 'abandoned'])
    .describe('`pending`: tried again with backoff (30 s doubling to hourly, for 25 hours); the others are final'),
  attempts: z.number().int(),
  lastError: z.string().nullable().describe('why the last try failed; null when it did not'),
  created: z.string().describe('when the event was made (ISO 8601, UTC)'),
  lastTry: z.string().describe('when it was last tried (ISO 8601, UTC)'),
});
