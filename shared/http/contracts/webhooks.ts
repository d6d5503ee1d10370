import { z } from 'zod';
import {
  deliveriesQuerySchema,
  deliverySchema,
  pingSchema,
  rotateBodySchema,
  rotatedSchema,
  webhookBodySchema,
  webhookSettingsSchema,
} from '../../api/webhook-schemas';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';

/**
 * The caller's webhook, set and looked after by the client itself (issue 38 item 5; docs/interface.md, "Webhooks").
 * Every operation acts on the calling client's own webhook: there is no client id to give, nor another's to reach.
 */

const HOOK = 'https://erp.example.com/siex/hooks';
const settingsExample = {
  url: HOOK,
  events: ['job.finished', 'job.reconciled'],
  source: 'client',
  secretGeneration: 0,
  previousSecretValidUntil: null,
  updated: '2026-11-29T09:12:03.000Z',
} satisfies z.output<typeof webhookSettingsSchema>;
const EXAMPLE_SECRET = 'whsec_3q2-7wE0AbCdEfGhIjKlMnOpQrStUvWxYz0123456789a';

export const readWebhookContract = {
  ...CORE_ROUTES.readWebhook,
  summary: "The caller's webhook",
  description:
    'Where the caller’s job events go, which it hears and which of its secrets signs them; never the secret itself. ' +
    'Until the client sets its own (PUT), its operators’ registration answers, `source: "operator"`.',
  query: z.object({}),
  success: { status: 200, description: 'the settings', schema: webhookSettingsSchema },
  errors: ['WEBHOOK_NOT_SET'],
  example: { query: {}, response: settingsExample },
} satisfies Contract;

export const setWebhookContract = {
  ...CORE_ROUTES.setWebhook,
  summary: "Set the caller's webhook",
  description:
    'Sets where the caller’s job events are POSTed (`url`) and which (`events`, default every one): each settled export ' +
    'of any farm the client shares sends `job.finished`, and a failed one `job.reconciled` once its unknown outcomes ' +
    'are known, signed in the `Siex-Gateway-Signature` header. The URL is https to a public address, judged again after ' +
    'DNS at every delivery. The answer shows the signing `secret` the first time the client sets its webhook and never ' +
    'again (lost: rotate). Setting it again changes the URL and events and keeps the secret. Events already handed over ' +
    'go to the URL set when they are tried. Supersedes the operators’ registration for this client; a re-import of ' +
    'their data does not undo it. Putting the same settings twice is harmless.',
  query: z.object({}),
  body: webhookBodySchema,
  success: { status: 200, description: 'the settings now', schema: webhookSettingsSchema },
  errors: ['WEBHOOKS_UNAVAILABLE'],
  example: {
    query: {},
    request: { url: HOOK, events: ['job.finished'] } satisfies z.input<typeof webhookBodySchema>,
    response: { ...settingsExample, events: ['job.finished'], secret: EXAMPLE_SECRET },
  },
} satisfies Contract;

export const testWebhookContract = {
  ...CORE_ROUTES.testWebhook,
  summary: "Send a signed ping to the caller's webhook",
  description:
    'POSTs one `webhook.ping` event, signed as job events are, to the caller’s webhook now, and answers what the ' +
    'receiver said (10 s at most). Not retried. It shows among the deliveries.',
  query: z.object({}),
  success: { status: 200, description: 'what the receiver answered', schema: pingSchema },
  errors: ['WEBHOOK_NOT_SET', 'WEBHOOKS_UNAVAILABLE'],
  example: {
    query: {},
    response: {
      eventId: 'evt_ping_5d0c8a9e-3f7b-4c1a-9a41-0b6c2e8f7d13',
      outcome: 'delivered',
      detail: 'answered 2xx',
    } satisfies z.output<typeof pingSchema>,
  },
} satisfies Contract;

export const rotateWebhookSecretContract = {
  ...CORE_ROUTES.rotateWebhookSecret,
  summary: "Rotate the caller's webhook signing secret",
  description:
    'Issues a new signing secret, shown in this answer only. The old one keeps signing beside it for `overlapHours` ' +
    '(default 24, at most 168; 0 stops it now): meanwhile each delivery carries one `v1=` signature per secret, so a ' +
    'receiver configured with either verifies. Rotating again during an overlap keeps the secret from before it as the ' +
    'old one: a client that lost a rotation’s answer still holds a secret that verifies, and rotates again.',
  query: z.object({}),
  body: rotateBodySchema,
  success: { status: 200, description: 'the settings now, with the new secret', schema: rotatedSchema },
  errors: ['WEBHOOK_NOT_SET', 'WEBHOOKS_UNAVAILABLE'],
  example: {
    query: {},
    request: { overlapHours: 48 } satisfies z.input<typeof rotateBodySchema>,
    response: {
      ...settingsExample,
      secretGeneration: 1,
      previousSecretValidUntil: '2026-12-01T09:12:03.000Z',
      secret: EXAMPLE_SECRET,
    } satisfies z.output<typeof rotatedSchema>,
  },
} satisfies Contract;

export const listWebhookDeliveriesContract = {
  ...CORE_ROUTES.listWebhookDeliveries,
  summary: "The caller's last webhook deliveries",
  description:
    'The events sent to the caller’s webhook, newest first, each with where it stands: `pending` (tried again with ' +
    'backoff), `delivered` or `abandoned` (tried for 25 hours, or its URL refused), its tries and the last failure.',
  query: deliveriesQuerySchema,
  success: { status: 200, description: 'the deliveries, newest first', schema: z.array(deliverySchema) },
  errors: [],
  example: {
    query: { limit: 2 },
    response: [
      {
        eventId: 'evt_job_1_outcome',
        type: 'job.finished',
        jobId: 1,
        url: HOOK,
        state: 'delivered',
        attempts: 2,
        lastError: null,
        created: '2026-11-29T09:20:00.000Z',
        lastTry: '2026-11-29T09:20:30.000Z',
      },
    ] satisfies z.output<typeof deliverySchema>[],
  },
} satisfies Contract;
