import { doneColumnsOf, doneKeyOf } from '../../shared/export/export-keys';
import { exportReply } from '../../shared/http/export-reply';
import { recordReply } from '../../shared/http/record-reply';

/**
 * The export side's services answer domain results; the HTTP edge alone makes statuses and bodies of them, and the
 * export's Idempotency-Key keeps them in the columns it always had (status and body).
 */
describe('the edge', () => {
  it('answers a started export 202 with its text exactly as rendered, never parsed and written again', () => {
    const answerJson = '{"id":7,  "status":"Iniciando","message":"old wording"}';
    expect(exportReply({ outcome: 'started', answerJson })).toEqual({ status: 202, rawJson: answerJson });
  });

  it('answers a started deletion job 202 with its text and no ETag (no record in it)', () => {
    const answerJson = '{"id":8,"status":"Iniciando"}';
    expect(recordReply({ outcome: 'deletion-started', answerJson })).toEqual({
      status: 202,
      rawJson: answerJson,
      headers: {},
    });
  });
});

describe("an export's Idempotency-Key as stored", () => {
  it('keeps a started export as the 202 and the text it answered', () => {
    const key = { requestHash: 'h', answer: { outcome: 'started' as const, answerJson: '{"id":7}' } };
    expect(doneColumnsOf(key)).toEqual({ requestHash: 'h', status: 202, body: '{"id":7}' });
    expect(doneKeyOf(doneColumnsOf(key))).toEqual(key);
  });

  it('reads a row written before the services returned domain results as the answer it keeps', () => {
    expect(doneKeyOf({ requestHash: 'old', status: 202, body: '{"id":3,"status":"Iniciando"}' })).toEqual({
      requestHash: 'old',
      answer: { outcome: 'started', answerJson: '{"id":3,"status":"Iniciando"}' },
    });
  });

  it('refuses a row whose status no answer was ever kept under, rather than replaying a guess', () => {
    expect(() => doneKeyOf({ requestHash: 'x', status: 200, body: '{}' })).toThrow('no known answer (status 200)');
  });
});
