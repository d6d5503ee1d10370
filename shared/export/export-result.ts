/**
 * What the export operation did, in domain terms (the HTTP edge alone makes a status of it, shared/http/export-reply.ts):
 * `started` a job. The answer (the job, its first status, and with pending=1 how many records it takes) is rendered
 * once: a retry under the same Idempotency-Key gets exactly this text again, even one stored before the text changed.
 */
export type ExportOutcome = 'started';

export interface ExportResult {
  outcome: ExportOutcome;
  /** The answer's JSON text, as it was rendered when the job started. */
  answerJson: string;
}
