import { FertilizeRecordView } from '../../shared/fertilization/wire';
import { fertilizationListFilter } from '../../shared/fertilization/list-filters';

/** The fertilization list's filters beside the period: the material on the rows, the rest on the answers. */
const answer = (o: Partial<FertilizeRecordView>) =>
  ({ exported: '0', exportable: true, idcp: ['101'], ...o }) as FertilizeRecordView;

describe('the fertilization list filter', () => {
  it('filters the material on the rows, as the kind keeps it (its code as a number: 014 is 14)', () => {
    expect(fertilizationListFilter({ material: '014' })).toEqual({ value: '14' });
    expect(fertilizationListFilter({})).toEqual({});
  });

  it('reads the answers only when export state, exportability or a location is asked, each as the record says it', () => {
    const f = fertilizationListFilter({ exported: 1, exportable: 0, idcp: '0102' }).answers!;
    expect(f(answer({ exported: '1', exportable: false, idcp: ['101', '102'] }))).toBe(true);
    expect(f(answer({ exported: '0', exportable: false, idcp: ['102'] }))).toBe(false);
    expect(f(answer({ exported: '1', exportable: true, idcp: ['102'] }))).toBe(false);
    expect(f(answer({ exported: '1', exportable: false, idcp: ['101'] }))).toBe(false);
  });
});
