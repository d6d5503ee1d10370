import { controlCall } from '../control-client';
import { MailStubStats, OutboxEntry } from './server';

/** The e-mail stub's control and inspection endpoints from another process (tests): see server.ts. */
export interface MailStubControl {
  outbox(): Promise<OutboxEntry[]>;
  stats(): Promise<MailStubStats>;
  failNext(n: number): Promise<void>;
  reset(): Promise<void>;
}

export function mailStubControl(baseUrl: string): MailStubControl {
  const call = controlCall(baseUrl, 'mail stub');
  return {
    outbox: () => call('GET', '/_inspect/outbox'),
    stats: () => call('GET', '/_inspect/stats'),
    failNext: async (n) => void (await call('POST', '/_control', { failNext: n })),
    reset: async () => void (await call('POST', '/_control/reset')),
  };
}
