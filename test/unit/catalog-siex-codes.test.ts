import { DateTime } from 'luxon';
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
        'TIPO_MAQUINA_UNE',
        'TIPO_PRODFITO',
        'UNIDADES_MEDIDA',
        'MAT_FERTI',
        'TIPO_FERITILIZACION',
        'METODO_APLICACION_FERTILIZANTE',
        'MACRONUTRIENTES',
        'MICRONUTRIENTES',
        'METALES_PESADOS',
        'TRAT_ESTIERCOLES',
        'SIST_RIEGO',
        'ORIGEN_AGUA_RIEGO',
        'BUENAS_PRACTICAS_FERTILIZACION',
        // scopes of use (issue 34)
        'PROD_VEGETAL',
        // harvests (issue 34)
        'DEST_COSECHA',
        'DEST_RES_VEG',
        'TIPENERGIA',
        // irrigation (issue 35)
        'BUENAS_PRACTICAS_RIEGO',
        // analyses (issue 35)
        'MATERIAL_ANALIZADO',
        'TIPO_ANALISIS',
        'SUST_ACTIVAS',
        // store and premises treatments (issue 34)
        'EDIFICACIONES_INSTALACIONES',
        // treated seed (issue 34)
        'TIPO_TRATAMIENTO',
        // non-chemical measures of a treatment (issue 34)
        'TIPO_MEDIDA_FITOSANITARIA',
        'BUENAS_PRACTICAS_FITO',
        // the fertilizers' commercial products (issue 35)
        'DETALLE_MATERIAL_FERT',
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

  it('reads TIPO_MAQUINA_UNE, which FEGA publishes without dates: every type is in force on any day', () => {
    expect(codes.size('TIPO_MAQUINA_UNE')).toBe(690);
    expect(codes.name('TIPO_MAQUINA_UNE', '060303021')).toBe(
      'Pulverizadores hidroneumáticos con colector y deflectores',
    );
    expect(codes.isValid('TIPO_MAQUINA_UNE', '0630320_88', '01-01-2020')).toBe(true);
    expect(codes.isValid('TIPO_MAQUINA_UNE', '1', '01-01-2026')).toBe(false);
  });

  it('finds a pest by the hierarchy code the register writes in CodigoAgente, in whichever catalogue has it', () => {
    expect(codes.pestByPath('8.30.2.6')).toEqual({
      kind: 'enfermedad',
      code: 148,
      name: 'Oídio de la vid, Erysiphe necator',
      by: 'path',
    });
    expect(codes.pestByPath('6.1')).toMatchObject({ kind: 'plaga', code: 2, name: 'Ácaros' });
    expect(codes.pestByPath('1.2.1.1.3')).toMatchObject({ kind: 'mala_hierba', code: 141 });
    expect(codes.pestByPath('12.10')).toMatchObject({ kind: 'regulador', code: 3 });
    expect(codes.pestByPath('99.1')).toBeUndefined();
    expect(codes.pestByPath('')).toBeUndefined();
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
