import type { FarmIndex } from '../farms/farm-index';
import { checkSameRequest } from '../idempotency/idempotency';
import type { BlockIds } from './block-ids';
import type { RecordKind } from './record-kind';

/**
 * What a service of the records core did with a request, in domain terms (the HTTP edge alone makes statuses of them,
 * shared/http/record-reply.ts): `created` a new record, `current` the record as it now is (amended, unchanged, read),
 * `deleted` it at once, `deletion-started` a job that deletes it in SIEX first (shared/export/deletion-service.ts).
 */
export type RecordOutcome = 'created' | 'current' | 'deleted' | 'deletion-started';

export interface RecordResult {
  outcome: RecordOutcome;
  /**
   * The answer's JSON text (`[record]` as the kind answers it, a job, or empty for a deletion), rendered once: a retry
   * under the same Idempotency-Key gets exactly this text again.
   */
  answerJson: string;
  /** The record's version (its ETag) when the answer carries a record. */
  version?: number;
}

/**
 * An answer of a record change as its Idempotency-Key keeps it: what the change did, the answer's JSON text as it was
 * rendered (a retry gets exactly the same text), and the record's version when the answer carries a record.
 */
export interface StoredAnswer {
  requestHash: string;
  outcome: RecordOutcome;
  answerJson: string;
  version?: number;
}

/** The ETag of a record at a version: strong, so `If-Match` compares it exactly. */
export function recordEtag(version: number): string {
  return `"${version}"`;
}

/** A record as a service answers it: `[record]` as the kind answers it, rendered once, with its version (its ETag). */
export function recordAnswerResult<Rec>(
  kind: Pick<RecordKind<unknown, Rec>, 'answer'>,
  farm: FarmIndex,
  stored: { record: Rec; blockIds: BlockIds | null },
  version: number,
  outcome: RecordOutcome = 'current',
): RecordResult {
  return { outcome, answerJson: JSON.stringify([kind.answer(stored.record, farm, stored.blockIds)]), version };
}

/** A key seen before: the same request gets its first answer again; another request under that key is refused. */
export function replayed(stored: StoredAnswer, requestHash: string): RecordResult {
  checkSameRequest(stored.requestHash, requestHash);
  return {
    outcome: stored.outcome,
    answerJson: stored.answerJson,
    ...(stored.version !== undefined ? { version: stored.version } : {}),
  };
}
