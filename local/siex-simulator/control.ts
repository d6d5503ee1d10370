import { Control, Knobs, SimulatorStats, SubmissionView } from './simulator';

/**
 * The simulator's control and inspection endpoints from another process (tests, the bench): a thin typed wrapper over
 * POST /_control, POST /_control/reset, GET /_inspect/submissions and GET /_inspect/stats (see server.ts).
 */
export interface SiexSimulatorControl {
  set(knobs: Control): Promise<Knobs>;
  knobs(): Promise<Knobs>;
  reset(): Promise<Knobs>;
  submissions(options?: { documents?: boolean }): Promise<SubmissionView[]>;
  stats(): Promise<SimulatorStats>;
}

export function siexSimulatorControl(baseUrl: string): SiexSimulatorControl {
  const base = baseUrl.replace(/\/+$/, '');
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`SIEX simulator ${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
  return {
    set: (knobs) => call('POST', '/_control', knobs),
    knobs: () => call('GET', '/_control'),
    reset: () => call('POST', '/_control/reset'),
    submissions: (options = {}) => call('GET', `/_inspect/submissions${options.documents === false ? '?documents=false' : ''}`),
    stats: () => call('GET', '/_inspect/stats'),
  };
}
