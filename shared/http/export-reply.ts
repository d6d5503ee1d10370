import { ExportOutcome, ExportResult } from '../export/export-result';

/** The status each outcome of the export operation is answered with (docs/interface.md). */
const STATUS: Readonly<Record<ExportOutcome, number>> = {
  started: 202,
};

/** The export operation's result as the HTTP answer: its status, and its JSON text as it was rendered. */
export function exportReply(result: ExportResult): { status: number; rawJson: string } {
  return { status: STATUS[result.outcome], rawJson: result.answerJson };
}
