import { InvocationContext } from '@azure/functions';
import { processApp } from '../shared/app/services';
import { invocationSink } from '../shared/log/invocation-sink';
import { deliverWebhook, webhookMessageSchema } from '../shared/notify/webhook-delivery';

/**
 * One webhook delivery: one signed try, put back for later when it fails (shared/notify/webhook-delivery.ts); a throw
 * (the message could not be put back) gives it back to the queue. A message that is not a delivery is logged and
 * dropped.
 */
export async function webhookDelivery(message: unknown, context: InvocationContext): Promise<void> {
  const app = processApp();
  const parsed = webhookMessageSchema.safeParse(message);
  const correlationId = parsed.success && parsed.data.correlationId !== '' ? parsed.data.correlationId : undefined;
  await app.log.within({ sink: invocationSink(context), correlationId }, async () => {
    if (!parsed.success) app.log.event('message.ignored', { detail: JSON.stringify(message) }, 'error');
    else await deliverWebhook(await app.deliveries(), parsed.data);
  });
}
