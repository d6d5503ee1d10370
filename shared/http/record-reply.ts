import { RecordOutcome, RecordResult, recordEtag } from '../records/record-result';
import { withEtag } from './record-headers';

/** The status each outcome of a record service is answered with (docs/interface.md). */
const STATUS: Readonly<Record<RecordOutcome, number>> = {
  created: 201,
  current: 200,
  'deletion-started': 202,
  deleted: 204,
};

export function statusOfOutcome(outcome: RecordOutcome): number {
  return STATUS[outcome];
}

/** A record service's result as the HTTP answer: its status, its JSON text as rendered, the record's ETag. */
export function recordReply(result: RecordResult): {
  status: number;
  rawJson: string;
  headers: Record<string, string>;
} {
  return {
    status: statusOfOutcome(result.outcome),
    rawJson: result.answerJson,
    headers: withEtag(result.version === undefined ? undefined : recordEtag(result.version)),
  };
}
