import { z } from 'zod';
import { MoveOf, MoveTable } from '../domain/state-machine';

/**
 * Export job statuses by their names in the interface (docs/interface.md, "jobstatus"), with the number the interface
 * also shows. A job starts, runs and settles once; a settled job never changes status again.
 */
export const jobStatuses = ['Iniciando', 'EnProceso', 'FinalizadoCompleto', 'FinalizadoConErrores', 'Fallido'] as const;
export const jobStatusSchema = z.enum(jobStatuses);
export type JobStatus = z.infer<typeof jobStatusSchema>;

export const JOB_STATUS_ID = {
  Iniciando: 1,
  EnProceso: 2,
  FinalizadoCompleto: 3,
  FinalizadoConErrores: 4,
  Fallido: 5,
} as const satisfies Record<JobStatus, number>;

/** Every status a job may move to from each status. */
export const TRANSITIONS = {
  Iniciando: ['EnProceso', 'Fallido'],
  EnProceso: ['FinalizadoCompleto', 'FinalizadoConErrores', 'Fallido'],
  FinalizadoCompleto: [],
  FinalizadoConErrores: [],
  Fallido: [],
} as const satisfies MoveTable<JobStatus>;

/** A move the machine allows, checked by the compiler: `{ from: 'Iniciando', to: 'FinalizadoCompleto' }` does not type. */
export type Transition = MoveOf<typeof TRANSITIONS>;

export type SettledStatus = 'FinalizadoCompleto' | 'FinalizadoConErrores' | 'Fallido';

export function isSettled(status: JobStatus): status is SettledStatus {
  return TRANSITIONS[status].length === 0;
}

/** Settled status once every record is: complete when all were accepted, with errors otherwise. */
export function finalStatus(accepted: number, total: number): 'FinalizadoCompleto' | 'FinalizadoConErrores' {
  return accepted === total ? 'FinalizadoCompleto' : 'FinalizadoConErrores';
}

/** `percentage` of a job: the share of its records settled (accepted, rejected, or not sendable), rounded down. */
export function percentage(settled: number, total: number): number {
  return total === 0 ? 100 : Math.floor((settled * 100) / total);
}
