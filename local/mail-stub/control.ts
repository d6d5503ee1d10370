import { MailStubStats, OutboxEntry } from './server';

/** The e-mail stub's control and inspection endpoints from another process (tests): see server.ts. */
export interface MailStubControl {
  outbox(): Promise<OutboxEntry[]>;
  stats(): Promise<MailStubStats>;
  failNext(n: number): Promise<void>;
  reset(): Promise<void>;
}

export function mailStubControl(baseUrl: string): MailStubControl {
  const base = baseUrl.replace(/\/+$/, '');
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`mail stub ${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
  return {
    outbox: () => call('GET', '/_inspect/outbox'),
    stats: () => call('GET', '/_inspect/stats'),
    failNext: async (n) => void (await call('POST', '/_control', { failNext: n })),
    reset: async () => void (await call('POST', '/_control/reset')),
  };
}
