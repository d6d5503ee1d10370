import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CropGroupsError, CropResolver, loadCropGroups } from '../../shared/catalog/crop-groups';
import { officialCodes } from './catalog-fixtures';

describe('crop groups', () => {
  const codes = officialCodes();
  const crops = new CropResolver(loadCropGroups(), codes);

  it('ships a mapping whose every code is a SIEX crop still in use', () => {
    expect(crops.unknownCodes()).toEqual([]);
    const file = loadCropGroups();
    const withdrawn = Object.values(file.groups)
      .flat()
      .filter((c) => !c.startsWith('@') && codes.get('PRODUCTOS', c)?.until);
    expect(withdrawn).toEqual([]);
  });

  it('maps the register crop groups to the SIEX crops they contain', () => {
    expect(crops.resolve('Frutales de pepita')?.codes).toEqual(expect.arrayContaining(['108', '109', '211', '214']));
    expect(crops.resolve('Frutales de pepita')?.codes).not.toContain('105');
    const cereals = crops.resolve('Cereales de invierno / primavera')?.codes;
    expect(cereals).toEqual(expect.arrayContaining(['1', '3', '5', '6', '8', '13']));
    expect(cereals).not.toContain('4'); // maize is a summer cereal
    expect(crops.resolve('Vid')).toEqual({ codes: expect.arrayContaining(['102', '120']), by: 'group' });
    // 103 UVA DE MESA was withdrawn in 2022: table grapes are declared as 102 VIÑA now.
    expect(crops.resolve('Vid de mesa')?.codes).toContain('102');
    expect(crops.resolve('Olivo')?.codes).toContain('101');
  });

  it('compares names without case, accents or spacing ("Guisante proteaginoso /forrajero")', () => {
    expect(crops.resolve('CEREALES DE INVIERNO/PRIMAVERA')?.codes).toEqual(
      crops.resolve('Cereales de invierno / primavera')?.codes,
    );
    expect(crops.resolve('Guisante proteaginoso /forrajero')?.codes).toEqual(['40']);
    expect(crops.resolve('citricos')?.codes).toContain('206');
  });

  it('expands references to other entries', () => {
    const fruit = crops.resolve('Árboles y arbustos frutales')?.codes ?? [];
    for (const code of ['109', '105', '206', '104', '216']) expect(fruit).toContain(code);
  });

  it('falls back to PRODUCTOS by name, by each comma alternative and by the singular', () => {
    expect(crops.resolve('Berenjena')).toEqual({ codes: ['162', '563', '568'], by: 'group' });
    expect(crops.resolve('Girasol')).toEqual({ codes: ['33'], by: 'name' });
    expect(crops.resolve('Zanahoria')).toEqual({ codes: ['178'], by: 'name' });
    expect(crops.resolve('Melones')).toEqual({ codes: ['153', '582'], by: 'group' });
    expect(crops.resolve('Garbanzos')).toEqual({ codes: ['50'], by: 'name' });
    expect(crops.resolve('Patata, papa')?.codes).toEqual(['99']);
    expect(crops.resolve('Escarola, endibia de hoja ancha')).toEqual({ codes: ['189'], by: 'name' });
  });

  it('answers nothing for a name in neither (the import reports it)', () => {
    expect(crops.resolve('Judía forrajera')).toBeUndefined();
    expect(crops.resolve('Césped')).toBeUndefined();
  });

  describe('an edited mapping file', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'crop-groups-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const write = (content: unknown) => {
      const file = path.join(dir, 'groups.json');
      writeFileSync(file, JSON.stringify(content));
      return file;
    };

    it('is used instead of the shipped one', () => {
      const file = write({ groups: { 'Judía forrajera': ['180'], Forrajes: ['@Judía forrajera', '60'] } });
      const custom = new CropResolver(loadCropGroups(file), codes);
      expect(custom.resolve('judia forrajera')).toEqual({ codes: ['180'], by: 'group' });
      expect(custom.resolve('Forrajes')?.codes).toEqual(['60', '180']);
      expect(custom.resolve('Frutales de pepita')).toBeUndefined();
    });

    it('is refused with the path of each problem', () => {
      expect(() => loadCropGroups(write({ groups: { Vid: ['102', 'viña'] }, extra: 1 }))).toThrow(CropGroupsError);
      expect(() => loadCropGroups(write({ groups: { Vid: ['102', 'viña'] } }))).toThrow(/groups\.Vid\.1/);
    });

    it('is refused when a reference names no entry or goes round in a circle', () => {
      expect(() => new CropResolver(loadCropGroups(write({ groups: { A: ['@B'] } })), codes)).toThrow(
        /'@B' names no entry/,
      );
      expect(() => new CropResolver(loadCropGroups(write({ groups: { A: ['@B'], B: ['@A'] } })), codes)).toThrow(
        /circular/,
      );
    });

    it('reports codes that PRODUCTOS does not have', () => {
      const custom = new CropResolver(loadCropGroups(write({ groups: { Vid: ['102', '99999'] } })), codes);
      expect(custom.unknownCodes()).toEqual(['99999']);
    });
  });
});
