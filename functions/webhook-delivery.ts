import { InvocationContext } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { invocationSink } from '../shared/log/invocation-sink';
import {
  deliverWebhook,
  DeliveryDeps,
  redriveWebhook,
  WebhookMessage,
  webhookMessageSchema,
} from '../shared/notify/webhook-delivery';

/** Runs `work` on the message's delivery inside the invocation's log scope; a message that is not one is logged and dropped. */
function withDelivery(
  message: unknown,
  context: InvocationContext,
  work: (deps: DeliveryDeps, m: WebhookMessage) => Promise<unknown>,
): Promise<void> {
  const app = processApp();
  const parsed = webhookMessageSchema.safeParse(message);
  const correlationId = parsed.success && parsed.data.correlationId !== '' ? parsed.data.correlationId : undefined;
  return app.log.within({ sink: invocationSink(context), correlationId }, async () => {
    if (!parsed.success) app.log.event('message.ignored', { detail: JSON.stringify(message) }, 'error');
    else await work(await app.deliveries(), parsed.data);
  });
}

/** One webhook delivery: one signed try, put back for later when it fails; a throw gives the message back to the queue. */
export function webhookDelivery(message: unknown, context: InvocationContext): Promise<void> {
  return withDelivery(message, context, deliverWebhook);
}

/** A delivery whose every message failed to be put back: put back once more, or abandoned after 25 hours. */
export function webhookPoison(message: unknown, context: InvocationContext): Promise<void> {
  return withDelivery(message, context, redriveWebhook);
}
