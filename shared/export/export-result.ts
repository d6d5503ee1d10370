import type { JobKind } from './job';

/**
 * What the export operation did, in domain terms (the HTTP edge alone makes a status of it, shared/http/export-reply.ts):
 * `started` a job. The answer (the job, its first status, and with pending=1 how many records it takes) is rendered
 * once, by the edge's `startAnswer`: a retry under the same Idempotency-Key gets exactly this text again, even one
 * stored before the text changed.
 */
export type ExportOutcome = 'started';

/** A record an export named and left out, because SIEX would refuse it as it stands: by its URN, with why. */
export interface BlockedRecord {
  id: string;
  exportBlockers: { code: 'MISSING_DATA'; message: string }[];
}

/** A job just started (Iniciando), as its answer tells it: what it asks of SIEX, and what pending=1 took. */
export interface JobStarted {
  jobId: number;
  kind: JobKind;
  /** With pending=1: how many records the job takes, and whether others still wait beyond it. */
  pending?: { records: number; morePending: boolean };
  /** The records named that the job does not take, since SIEX would refuse them (absent when there are none). */
  blocked?: BlockedRecord[];
}

/** How the interface answers a job's start, as JSON text (shared/http/job-answers.ts). */
export type StartAnswer = (started: JobStarted) => string;

export interface ExportResult {
  outcome: ExportOutcome;
  /** The answer's JSON text, as it was rendered when the job started. */
  answerJson: string;
}
