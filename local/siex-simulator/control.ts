import { controlCall } from '../control-client';
import { Control, Knobs } from './knobs';
import { NotebookEntry } from './notebook';
import { SimulatorStats, SubmissionView } from './simulator';

/**
 * The simulator's control and inspection endpoints from another process (tests, the bench): a thin typed wrapper over
 * POST /_control, POST /_control/reset, GET /_inspect/submissions, /_inspect/stats, /_inspect/notebook and
 * /_inspect/notebook/<Section> (server.ts).
 */
export interface SiexSimulatorControl {
  set(knobs: Control): Promise<Knobs>;
  knobs(): Promise<Knobs>;
  reset(): Promise<Knobs>;
  submissions(options?: { documents?: boolean }): Promise<SubmissionView[]>;
  stats(): Promise<SimulatorStats>;
  /** The blocks of one section of the schema SIEX holds now (one holding's when `codigoRea` is given). */
  notebook(section: string, codigoRea?: string): Promise<NotebookEntry[]>;
  /** Every section's blocks SIEX holds now, by section (one holding's when `codigoRea` is given). */
  wholeNotebook(codigoRea?: string): Promise<Record<string, NotebookEntry[]>>;
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
    notebook: (section, codigoRea) =>
      call('GET', `/_inspect/notebook/${encodeURIComponent(section)}${holding(codigoRea)}`),
    wholeNotebook: (codigoRea) => call('GET', `/_inspect/notebook${holding(codigoRea)}`),
  };
}
