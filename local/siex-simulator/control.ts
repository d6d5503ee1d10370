import { HoldingResponse } from '../../shared/siex/iuws-protocol';
import { controlCall } from '../control-client';
import { Control, Knobs } from './knobs';
import { NotebookEntry } from './notebook';
import { SeededEntry, SimulatorStats, SubmissionView } from './simulator';

/**
 * The simulator's control and inspection endpoints from another process (tests, the bench): a thin typed wrapper over
 * POST /_control, POST /_control/reset, POST /_control/notebook, /_control/notebook/forget and /_control/holdings,
 * GET /_inspect/submissions, /_inspect/stats, /_inspect/notebook and
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
  /** Keeps a block in a holding's notebook as if another notebook had sent it. */
  seedEntry(entry: SeededEntry): Promise<void>;
  /** SIEX loses a block it held. */
  forgetEntry(section: string, idAjena: number): Promise<void>;
  /** A holding `exportarREA` answers for its REA code and campaign. */
  seedHolding(holding: HoldingResponse): Promise<void>;
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
    seedEntry: (entry) => call('POST', '/_control/notebook', entry),
    forgetEntry: (section, idAjena) => call('POST', '/_control/notebook/forget', { section, idAjena }),
    seedHolding: (h) => call('POST', '/_control/holdings', h),
  };
}
