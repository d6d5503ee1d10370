import { DomainError } from '../domain/errors';
import { statusOf } from './error-status';
import { problemBody } from './problem';

/** One item's outcome (shared/phyto/batch-register.ts): what registering it alone answered, or why it was refused. */
type BatchItemOutcome =
  { index: number; stored: { status: number; body: string; etag?: string } } | { index: number; refused: DomainError };

/**
 * A batch's answer, `[{ index, status, etag?, body }]`: each stored item's answer as it was rendered (and stored under
 * its key), each refused one's problem details with the status it would have had alone.
 */
export function renderBatchAnswer(outcomes: BatchItemOutcome[]): string {
  const items = outcomes.map((o) => {
    if ('stored' in o) {
      const etag = o.stored.etag === undefined ? '' : `,"etag":${JSON.stringify(o.stored.etag)}`;
      return `{"index":${o.index},"status":${o.stored.status}${etag},"body":${o.stored.body}}`;
    }
    const status = statusOf(o.refused.violations);
    const problem = problemBody(status, o.refused.detail, o.refused.violations);
    return JSON.stringify({ index: o.index, status, body: problem });
  });
  return `[${items.join(',')}]`;
}
