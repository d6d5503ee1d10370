import { signatureHeader, SIGNATURE_HEADER } from './webhook-signature';
import { webhookSecret } from './webhook-secret';

/** What the notifier needs to deliver an event: one signed POST, answered 2xx (true) or not (why, for operators). */
export interface WebhookPort {
  deliver(
    delivery: { url: string; clientId: string; eventId: string; body: string },
    nowMs: number,
  ): Promise<true | string>;
}

/** A receiver has this long to answer a delivery; a slower one is tried again later, as one that failed. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Delivers events over HTTP, signed with each client's secret (webhook-secret.ts). Never throws: a receiver that
 * fails, hangs or cannot be reached is a failed try, retried by the job's watch row, and never fails the job.
 */
export function createWebhookSender(signingKey: string, timeoutMs = DELIVERY_TIMEOUT_MS): WebhookPort {
  return {
    async deliver({ url, clientId, eventId, body }, nowMs) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'siex-gateway-webhooks/1',
            'Siex-Gateway-Event-Id': eventId,
            [SIGNATURE_HEADER]: signatureHeader(webhookSecret(signingKey, clientId), body, nowMs),
          },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.body?.cancel();
        return res.status >= 200 && res.status < 300 ? true : `answered HTTP ${res.status}`;
      } catch (e) {
        const cause = (e as { cause?: { code?: string } }).cause?.code;
        return `not delivered: ${(e as Error).name}${cause ? ` (${cause})` : ''}`;
      }
    },
  };
}
