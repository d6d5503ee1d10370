import { BatchItemOutcome } from '../records/batch-register';
import { recordEtag } from '../records/record-result';
import { statusOf } from './error-status';
import { problemBody } from './problem';
import { statusOfOutcome } from './record-reply';

/**
 * A batch's answer, `[{ index, status, etag?, body }]`: each stored item's answer as it was rendered (and stored under
 * its key), each refused one's problem details with the status it would have had alone.
 */
export function renderBatchAnswer(outcomes: BatchItemOutcome[]): string {
  const items = outcomes.map((o) => {
    if ('stored' in o) {
      const { outcome, version, answerJson } = o.stored;
      const etag = version === undefined ? '' : `,"etag":${JSON.stringify(recordEtag(version))}`;
      return `{"index":${o.index},"status":${statusOfOutcome(outcome)}${etag},"body":${answerJson}}`;
    }
    const status = statusOf(o.refused.violations);
    const problem = problemBody(status, o.refused.detail, o.refused.violations);
    return JSON.stringify({ index: o.index, status, body: problem });
  });
  return `[${items.join(',')}]`;
}
