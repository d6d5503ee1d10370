import { controlCall } from '../control-client';
import { ReceivedDelivery } from './server';

/** The webhook receiver's control and inspection endpoints from another process (tests): see server.ts. */
export interface WebhookReceiverControl {
  deliveries(): Promise<ReceivedDelivery[]>;
  failNext(n: number): Promise<void>;
  delay(ms: number): Promise<void>;
  reset(): Promise<void>;
}

export function webhookReceiverControl(baseUrl: string): WebhookReceiverControl {
  const call = controlCall(baseUrl, 'webhook receiver');
  return {
    deliveries: () => call('GET', '/_inspect/deliveries'),
    failNext: async (n) => void (await call('POST', '/_control', { failNext: n })),
    delay: async (ms) => void (await call('POST', '/_control', { delayMs: ms })),
    reset: async () => void (await call('POST', '/_control/reset')),
  };
}
