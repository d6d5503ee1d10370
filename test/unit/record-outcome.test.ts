import { BlockResult, recordOutcome } from '../../shared/export/record-outcome';

/** A record sent as one TratamFito per crop and variety is reported once, from the verdicts on all its blocks. */
describe("a record's outcome from its blocks' verdicts", () => {
  const ok: BlockResult = { ok: true, errors: [] };
  const error = (code: string, message: string): BlockResult => ({ ok: false, errors: [{ code, message }] });

  it('is the block verdict for a record on one crop, as it always was', () => {
    expect(recordOutcome([7], new Map([[7, ok]]))).toEqual({ state: 'ok' });
    expect(recordOutcome([7], new Map([[7, error('E12', 'DGC desconocida')]]))).toEqual({
      state: 'error',
      code: 'E12',
      message: 'DGC desconocida',
    });
    expect(recordOutcome([7], new Map([[7, { ok: false, errors: [] }]]))).toEqual({
      state: 'error',
      code: 'SIEX_ERROR',
      message: 'rejected by SIEX',
    });
    expect(recordOutcome([7], new Map())).toEqual({
      state: 'error',
      code: 'NO_RESULT',
      message: 'SIEX returned no result for this record',
    });
  });

  it('is accepted only when every block is, and otherwise names every error', () => {
    const ids = [7, 10_000_000_007];
    expect(
      recordOutcome(
        ids,
        new Map([
          [7, ok],
          [10_000_000_007, ok],
        ]),
      ),
    ).toEqual({ state: 'ok' });
    expect(
      recordOutcome(
        ids,
        new Map([
          [7, ok],
          [10_000_000_007, error('E12', 'DGC desconocida')],
        ]),
      ),
    ).toEqual({ state: 'error', code: 'E12', message: 'DGC desconocida' });
    // a block SIEX said nothing about keeps the record from counting as accepted
    expect(recordOutcome(ids, new Map([[7, ok]]))).toEqual({
      state: 'error',
      code: 'NO_RESULT',
      message: 'SIEX returned no result for block 10000000007',
    });
    // results of other records' blocks are not this record's
    expect(recordOutcome([8], new Map([[7, ok]]))).toMatchObject({ code: 'NO_RESULT' });
  });
});
