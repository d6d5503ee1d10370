import { DateTime } from 'luxon';
import { SiexCodes } from '../../shared/catalog/siex-codes/siex-codes';
import { officialCatalogues, officialCodes } from './catalog-fixtures';

describe('SiexCodes lookups', () => {
  const codes = officialCodes();

  it('knows every catalogue the gateway uses', () => {
    expect(codes.loaded().sort()).toEqual(
      [
        'EFICACIA_TRATAMIENTO',
        'ENFERMEDADES',
        'EST_FENOLOGICO',
        'JUSTIFICACION_ACTUACION',
        'MALAS_HIERBAS',
        'PLAGAS',
        'PRODUCTOS',
        'REGULADORES_CRECIMIENTO',
        'TIPO_PRODFITO',
        'UNIDADES_MEDIDA',
      ].sort(),
    );
    expect(codes.name('EFICACIA_TRATAMIENTO', 1)).toBe('Buena');
    expect(codes.name('TIPO_PRODFITO', '4')).toBe('Autorización excepcional');
    expect(codes.name('JUSTIFICACION_ACTUACION', 6)).toBe('Medidor de alerta fitosanitaria');
  });

  it('says a code is valid on a day unless unknown or end-dated on or before that day', () => {
    const withdrawn = officialCatalogues().PRODUCTOS!.find((c) => c.until)!;
    const [y, m, d] = withdrawn.until.split('-');
    expect(codes.status('PRODUCTOS', withdrawn.code, `${d}-${m}-${y}`)).toBe('ended');
    const dayBefore = DateTime.fromISO(withdrawn.until, { zone: 'Europe/Madrid' }).minus({ days: 1 });
    expect(codes.isValid('PRODUCTOS', withdrawn.code, dayBefore)).toBe(true);
    expect(codes.isValid('PRODUCTOS', '102', '15-03-2026')).toBe(true);
    expect(codes.status('UNIDADES_MEDIDA', 9999, '15-03-2026')).toBe('unknown');
    expect(codes.isValid('ENFERMEDADES', 148, '2026-03-15')).toBe(true);
  });

  it('does not reject a code for a day before its Fecha de alta (the day FEGA entered the row)', () => {
    expect(codes.get('UNIDADES_MEDIDA', 17)?.from).toBe('2023-09-20');
    expect(codes.isValid('UNIDADES_MEDIDA', 17, '01-01-2022')).toBe(true);
  });

  it('finds units by symbol whatever the case or spacing', () => {
    expect(codes.unitBySymbol('Kg/ha')?.code).toBe('17');
    expect(codes.unitBySymbol('l/ha')?.code).toBe('18');
    expect(codes.unitBySymbol('g/Hl')?.code).toBe('65');
    expect(codes.unitBySymbol(' % ')?.code).toBe('14');
    expect(codes.unitBySymbol('unidades/m2')?.code).toBe('15');
    expect(codes.unitBySymbol('ml/planta')).toBeUndefined();
  });

  it('prefers a unit still valid on the day when two rows share a symbol', () => {
    const units = SiexCodes.from({
      UNIDADES_MEDIDA: [
        { code: '1', name: 'kg/ha', from: '', modified: '', until: '2025-01-01' },
        { code: '2', name: 'KG/HA', from: '', modified: '', until: '' },
      ],
    });
    expect(units.unitBySymbol('kg/ha', '01-06-2025')?.code).toBe('2');
    expect(units.unitBySymbol('kg/ha', '01-06-2024')?.code).toBe('1');
  });

  it('finds pests by the register words: whole name, scientific name, genus entry', () => {
    expect(codes.pestByName('Oídio de la vid, Erysiphe necator')).toEqual({
      kind: 'enfermedad',
      code: 148,
      name: 'Oídio de la vid, Erysiphe necator',
      by: 'name',
    });
    expect(codes.pestByName('OIDIO DE LA VID,  ERYSIPHE NECATOR')?.code).toBe(148);
    expect(codes.pestByName('Araña roja común, Tetranychus spp.')).toMatchObject({ kind: 'plaga', code: 21 });
    // The register and SIEX both write a space before this comma; it is not significant.
    expect(codes.pestByName('Escarabajo sanjuanero, Melolontha spp.')?.kind).toBe('plaga');
    expect(codes.pestByName('Dicotiledóneas anuales')).toMatchObject({ kind: 'mala_hierba', code: 3 });
    expect(codes.pestByName('Aclareo frutos')).toMatchObject({ kind: 'regulador', code: 40 });
    expect(codes.pestByName('Uncinula de la vid, Erysiphe necator')).toMatchObject({ code: 148, by: 'scientific' });
    expect(codes.pestByName('Oídio de una rosácea nueva, Podosphaera inventada')).toMatchObject({
      kind: 'enfermedad',
      code: 165,
      by: 'genus',
    });
    expect(codes.pestByName('Malas hierbas anuales de los frutales')).toBeUndefined();
  });

  it('does not guess between codes that share a scientific name', () => {
    // "Bromus spp." is both the annual and the perennial bromes in MALAS_HIERBAS.
    expect(codes.pestByName('Bromus spp.')).toBeUndefined();
    expect(codes.pestByName('Bromos, Bromus spp. (especies anuales)')).toMatchObject({
      kind: 'mala_hierba',
      code: 142,
    });
  });

  it('finds crops by name, including each alternative of an "X o Y" name, but not withdrawn ones', () => {
    expect(codes.cropByName('Tomate')?.code).toBe('197');
    expect(codes.cropByName('viña')?.code).toBe('102');
    expect(codes.cropByName('Caqui')?.code).toBe('213');
    expect(codes.cropByName('Toronja')?.code).toBe('208');
    expect(codes.cropByName('DATO HISTÓRICO DE BAJA')).toBeUndefined();
  });
});
