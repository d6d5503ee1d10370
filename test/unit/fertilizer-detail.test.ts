import { detailByName, materialOfDetail } from '../../shared/fertilization/fertilizer-detail';
import { officialCodes } from './catalog-fixtures';

/**
 * Issue 35 item 4: the commercial product of a fertilization's material (CUE `DetalleMaterial`), read from the official
 * DETALLE_MATERIAL_FERT as published: its code is C_FERTILIZANTE, its material the first column.
 */
const codes = officialCodes();

it('reads each detail with the material it is a product of', () => {
  expect(codes.size('DETALLE_MATERIAL_FERT')).toBe(1243);
  expect(materialOfDetail(codes, 1)).toBe(14);
  expect(codes.name('DETALLE_MATERIAL_FERT', 1)).toBe('ÁCIDO NÍTRICO (15-00-00) de GENÉRICO');
  expect(materialOfDetail(codes, 551)).toBe(22);
  expect(materialOfDetail(codes, 999_999)).toBeUndefined();
});

it('gives the one row of the material a product name names, in any case and accent', () => {
  expect(detailByName(codes, 14, 'ácido nítrico (15-00-00)')).toBe(1);
  expect(detailByName(codes, 14, 'ÁCIDO NÍTRICO (15-00-00) de GENÉRICO')).toBe(1);
  // Not a product of another material.
  expect(detailByName(codes, 22, 'ÁCIDO NÍTRICO (15-00-00)')).toBeNull();
});

it('gives none for a name several rows of the material share', () => {
  const rhizovit = codes.list('DETALLE_MATERIAL_FERT').filter((e) => e.scientific === 'RHIZOVIT EXCELIS');
  expect(rhizovit.length).toBeGreaterThan(1);
  expect(new Set(rhizovit.map((e) => e.parent))).toEqual(new Set(['14']));
  expect(detailByName(codes, 14, 'RHIZOVIT EXCELIS')).toBeNull();
});

it('matches a name through the soft hyphen FEGA left in code 535', () => {
  const withHyphen = codes.get('DETALLE_MATERIAL_FERT', 535)!;
  expect(withHyphen.name).toContain('\u00ad');
  expect(detailByName(codes, Number(withHyphen.parent), withHyphen.name.replace(/\u00ad/g, ''))).toBe(535);
});
