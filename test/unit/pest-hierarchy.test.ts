import { PestHierarchy } from '../../shared/catalog/siex-codes/pest-hierarchy';
import { officialCodes } from './catalog-fixtures';

describe("pest groups from the catalogues' hierarchy codes", () => {
  const pests = officialCodes().pests;
  const plaga = (code: number) => ({ kind: 'plaga' as const, code });

  it('reads Araña roja común (PLAGAS 21, 6.1.3.4) as inside Ácaros tetraníquidos (17, 6.1.3), Ácaros (2, 6.1), Artrópodos (1, 6)', () => {
    expect(pests.pathOf(plaga(21))).toBe('6.1.3.4');
    expect(pests.groupsOf(plaga(21))).toEqual([plaga(17), plaga(2), plaga(1)]);
    expect(pests.covers(plaga(2), plaga(21))).toBe(true);
    expect(pests.covers(plaga(17), plaga(21))).toBe(true);
    expect(pests.covers(plaga(21), plaga(21))).toBe(true);
    // never upwards, never sideways
    expect(pests.covers(plaga(21), plaga(2))).toBe(false);
    expect(pests.covers(plaga(18), plaga(21))).toBe(false);
  });

  it('does it for the four catalogues, and never across them (codes repeat from one to the next)', () => {
    const covers = (kind: 'enfermedad' | 'mala_hierba' | 'regulador', group: number, code: number) =>
      pests.covers({ kind, code: group }, { kind, code });
    expect(covers('enfermedad', 139, 148)).toBe(true); // Oídios 8.30 ⊃ Oídio de la vid 8.30.2.6
    expect(covers('mala_hierba', 3, 4)).toBe(true); // Dicotiledóneas anuales 1.1.1 ⊃ Amarantáceas anuales 1.1.1.1
    expect(covers('regulador', 1, 3)).toBe(true); // Reguladores 12 ⊃ Adelanto maduración 12.10
    expect(covers('enfermedad', 42, 148)).toBe(false);
    expect(pests.covers({ kind: 'plaga', code: 2 }, { kind: 'enfermedad', code: 21 })).toBe(false);
  });

  it('lists a group and everything under it, for catalogue endpoints filtering by group', () => {
    const mites = pests.within(plaga(2));
    expect(mites[0]).toEqual(plaga(2));
    expect(mites).toEqual(expect.arrayContaining([plaga(17), plaga(21)]));
    expect(mites.every((m) => pests.covers(plaga(2), m))).toBe(true);
    expect(mites).not.toContainEqual(plaga(189));
    expect(pests.within(plaga(21))).toEqual([plaga(21)]);
  });

  it('finds a code by its hierarchy code, and skips a missing level to the nearest ancestor', () => {
    expect(pests.byPath('6.1.3.4')).toEqual(plaga(21));
    const tree = new PestHierarchy({
      plaga: [
        { code: '1', name: 'Artrópodos', path: '6', from: '', modified: '', until: '' },
        { code: '9', name: 'Especie', path: '6.1.3.4', from: '', modified: '', until: '' },
        { code: '10', name: 'Repetido', path: '6.1.3.4', from: '', modified: '', until: '' },
        { code: '11', name: 'Sin código', from: '', modified: '', until: '' },
      ],
    });
    expect(tree.groupsOf(plaga(9))).toEqual([plaga(1)]);
    expect(tree.covers(plaga(1), plaga(9))).toBe(true);
    // a path twice in one catalogue keeps its first row; a row without a path is in no group
    expect(tree.byPath('6.1.3.4')).toEqual(plaga(9));
    expect(tree.covers(plaga(1), plaga(10))).toBe(false);
    expect(tree.covers(plaga(1), plaga(11))).toBe(false);
  });
});
