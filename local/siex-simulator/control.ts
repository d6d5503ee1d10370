import { controlCall } from '../control-client';
import { Control, Knobs, NotebookEntry, SimulatorStats, SubmissionView } from './simulator';

/**
 * The simulator's control and inspection endpoints from another process (tests, the bench): a thin typed wrapper over
 * POST /_control, POST /_control/reset, GET /_inspect/submissions, /_inspect/stats and /_inspect/notebook (server.ts).
 */
export interface SiexSimulatorControl {
  set(knobs: Control): Promise<Knobs>;
  knobs(): Promise<Knobs>;
  reset(): Promise<Knobs>;
  submissions(options?: { documents?: boolean }): Promise<SubmissionView[]>;
  stats(): Promise<SimulatorStats>;
  /** What SIEX holds now (one holding's treatments when `codigoRea` is given). */
  notebook(codigoRea?: string): Promise<NotebookEntry[]>;
}

export function siexSimulatorControl(baseUrl: string): SiexSimulatorControl {
  const call = controlCall(baseUrl, 'SIEX simulator');
  return {
    set: (knobs) => call('POST', '/_control', knobs),
    knobs: () => call('GET', '/_control'),
    reset: () => call('POST', '/_control/reset'),
    submissions: (options = {}) =>
      call('GET', `/_inspect/submissions${options.documents === false ? '?documents=false' : ''}`),
    stats: () => call('GET', '/_inspect/stats'),
    notebook: (codigoRea) =>
      call('GET', `/_inspect/notebook${codigoRea ? `?codigoRea=${encodeURIComponent(codigoRea)}` : ''}`),
  };
}
