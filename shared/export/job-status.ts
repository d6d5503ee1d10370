/**
 * Export job statuses (docs/architecture.md, "Export pipeline"). Transitions: 1 → 2 → 3 | 4, and 1 | 2 → 5. `percentage` is the share of
 * records settled (accepted, rejected, or not sendable).
 */
export const JOB_STATUS = {
  1: 'Iniciando',
  2: 'EnProceso',
  3: 'FinalizadoCompleto',
  4: 'FinalizadoConErrores',
  5: 'Fallido',
} as const;

export type JobStatusId = keyof typeof JOB_STATUS;

export function isSettled(status: JobStatusId): boolean {
  return status >= 3;
}

/** Settled status once every record is: complete when all were accepted, with errors otherwise. */
export function finalStatus(accepted: number, total: number): JobStatusId {
  return accepted === total ? 3 : 4;
}

export function percentage(settled: number, total: number): number {
  return total === 0 ? 100 : Math.floor((settled * 100) / total);
}
