import { TransactionAction } from '@azure/data-tables';
import { KindReads } from '../../shared/records/kind-entry';
import { excerptKey, excerptsOf as excerptsOfRecord } from '../../shared/records/kind-format';
import { changeActions, excerptsOf, RecordChange, RecordView } from '../../shared/records/record-rows';
import { registeredExportState } from '../../shared/records/export-state';

/**
 * The excerpt a record row keeps for the facts other kinds read (kind-entry.ts, `Publication.excerpt`): written in the
 * record's own write, one property at most, so that a read of it alone stays one column a row.
 */
const record: RecordView = { exported: '0', dateCreated: '', dateModified: '' };
const change: RecordChange<unknown, RecordView> = {
  id: 1,
  write: { rowKey: 'r~1', product: '', appliedAtMs: 0, record },
  pointer: { row: { exportState: registeredExportState(false) } as never, request: null },
  guards: [],
  version: { version: 1, date: '', client: '', kind: 'created', changes: [] },
  idempotency: null,
};
const recordRow = (actions: TransactionAction[]) => actions[0][1] as Record<string, unknown>;

it('the record row keeps its excerpts in one column, read back by key', () => {
  const row = recordRow(changeActions('h~x', change, 1, () => ({ 'holds@1': { day: '2026-05-01' } })));
  expect(row).toMatchObject({ xn: 1 });
  expect(excerptsOf(row)).toEqual({ 'holds@1': { day: '2026-05-01' } });
});

it('a row keeps no excerpt when there is none, or when it would take more than one property', () => {
  expect(excerptsOf(recordRow(changeActions('h~x', change, 1)))).toBeUndefined();
  const large = recordRow(changeActions('h~x', change, 1, () => ({ 'holds@1': 'x'.repeat(40_000) })));
  expect(Object.keys(large).filter((k) => /^x\d|^xn$/.test(k))).toEqual([]);
  expect(excerptsOf(large)).toBeUndefined();
});

it("a kind's excerpts are its publications' that keep one, each under its topic and version", () => {
  const reads = {
    publishes: {
      holds: { excerpt: { version: 3, of: (r: RecordView) => r.exported }, facts: () => [] },
      inputs: { facts: () => [] },
    },
  } as unknown as KindReads;
  expect(excerptKey('holds', { version: 3, of: () => null })).toBe('holds@3');
  expect(excerptsOfRecord(reads, record)).toEqual({ 'holds@3': '0' });
});
