import { controlCall } from '../control-client';
import { Control, FertilizationNotebookEntry, Knobs, NotebookEntry, SimulatorStats, SubmissionView } from './simulator';

/**
 * The simulator's control and inspection endpoints from another process (tests, the bench): a thin typed wrapper over
 * POST /_control, POST /_control/reset, GET /_inspect/submissions, /_inspect/stats, /_inspect/notebook and /_inspect/notebook/fertilizations (server.ts).
 */
export interface SiexSimulatorControl {
  set(knobs: Control): Promise<Knobs>;
  knobs(): Promise<Knobs>;
  reset(): Promise<Knobs>;
  submissions(options?: { documents?: boolean }): Promise<SubmissionView[]>;
  stats(): Promise<SimulatorStats>;
  /** What SIEX holds now (one holding's treatments when `codigoRea` is given). */
  notebook(codigoRea?: string): Promise<NotebookEntry[]>;
  /** The fertilizations SIEX holds now (one holding's when `codigoRea` is given). */
  fertilizations(codigoRea?: string): Promise<FertilizationNotebookEntry[]>;
}

const holding = (codigoRea?: string) => (codigoRea ? `?codigoRea=${encodeURIComponent(codigoRea)}` : '');

export function siexSimulatorControl(baseUrl: string): SiexSimulatorControl {
  const call = controlCall(baseUrl, 'SIEX simulator');
  return {
    set: (knobs) => call('POST', '/_control', knobs),
    knobs: () => call('GET', '/_control'),
    reset: () => call('POST', '/_control/reset'),
    submissions: (options = {}) =>
      call('GET', `/_inspect/submissions${options.documents === false ? '?documents=false' : ''}`),
    stats: () => call('GET', '/_inspect/stats'),
    notebook: (codigoRea) => call('GET', `/_inspect/notebook${holding(codigoRea)}`),
    fertilizations: (codigoRea) => call('GET', `/_inspect/notebook/fertilizations${holding(codigoRea)}`),
  };
}
