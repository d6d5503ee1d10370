import { fieldChanges, mergePatch } from '../../shared/records/record-history';
import { phytoRequest } from '../helpers/phyto-fixtures';

describe('mergePatch: RFC 7396, its appendix A examples', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('leaves the target as it was', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });

  it('merges a patch nested 100,000 deep without running out of stack', () => {
    const depth = 100_000;
    const nest = (leaf: Record<string, unknown>) => {
      let v = leaf;
      for (let i = 0; i < depth; i++) v = { a: v };
      return v;
    };
    const merged = mergePatch(nest({ keep: 1, drop: 2 }), nest({ drop: null, add: 3 }));
    let v = merged as Record<string, unknown>;
    for (let i = 0; i < depth; i++) v = v.a as Record<string, unknown>;
    expect(v).toEqual({ keep: 1, add: 3 });
  });
});

describe('fieldChanges', () => {
  it('lists every changed field with its old and new value, null where not set; nested values compare whole', () => {
    const before = phytoRequest({ dose: 0.5, detail: 'x' });
    const after = { ...before, dose: 0.6, efficacy: { type: 'TypeEfficacy' as const, id: '1', name: '', detail: '' } };
    delete (after as { detail?: string }).detail;
    expect(fieldChanges(before, after)).toEqual([
      { field: 'dose', old: 0.5, new: 0.6 },
      { field: 'detail', old: 'x', new: null },
      { field: 'efficacy', old: null, new: after.efficacy },
    ]);
  });

  it('sees no change when only the key order differs', () => {
    const before = phytoRequest();
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(before).reverse())));
    expect(fieldChanges(before, reordered)).toEqual([]);
  });

  it('a new record lists each of its fields as new', () => {
    const request = phytoRequest();
    expect(fieldChanges(null, request).map((c) => c.field)).toEqual(Object.keys(request));
  });
});
