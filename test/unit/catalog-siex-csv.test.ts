import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOGUES, catalogueNames, parseCatalogue } from '../../shared/app/siex-catalogues';
import { catalogueDay, parseCsv } from '../../shared/catalog/siex-codes/csv';
import { decodeCatalogue } from '../../shared/catalog/siex-codes/decode-catalogue';
import { SIEX_DIR } from './catalog-fixtures';

const cp1252 = (text: string): Uint8Array =>
  Uint8Array.from(
    [...text].map(
      (ch) =>
        ({ ó: 0xf3, í: 0xed, é: 0xe9, Á: 0xc1, ñ: 0xf1, '€': 0x80, '²': 0xb2, '“': 0x93, '”': 0x94, '–': 0x96 })[ch] ??
        ch.charCodeAt(0),
    ),
  );

describe('SIEX catalogue CSV', () => {
  it('decodes Windows-1252, including the euro sign and superscripts that Latin-1 lacks or places elsewhere', () => {
    // Node's own TextDecoder('windows-1252') gets 0x80-0x9F wrong (it decodes them as Latin-1 control characters).
    const text = '"Código";"Oídio";"€/ha";"Unidades/m²";"Ácaros";"Año";“cita” – fin';
    expect(decodeCatalogue(cp1252(text))).toBe(text);
  });

  it("decodes every character Windows-1252 defines in 0x80-0x9F, where Node 20's TextDecoder goes wrong", () => {
    // Unicode's table for cp1252 (CP1252.TXT); the five bytes it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D)
    // show as the replacement character.
    const expected = '€\ufffd‚ƒ„…†‡ˆ‰Š‹Œ\ufffdŽ\ufffd\ufffd‘’“”•–—˜™š›œ\ufffdžŸ';
    expect(decodeCatalogue(Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i))).toBe(expected);
    expect(decodeCatalogue(Uint8Array.from([0x80, 0x2f, 0x68, 0x61]))).toBe('€/ha');
  });

  it('decodes a file re-saved as UTF-8 with a BOM', () => {
    const utf8 = new TextEncoder().encode('\ufeff"Código";"Oídio"');
    expect(decodeCatalogue(utf8)).toBe('"Código";"Oídio"');
  });

  it('splits quoted fields with separators, doubled quotes, line breaks, CRLF and empty cells', () => {
    const text =
      '"Código";"Nombre";Fecha de baja\r\n"1";"a;b";\r\n"2";"dice ""hola""\nen dos líneas";01/02/2024\r\n\r\n';
    expect(parseCsv(text).rows).toEqual([
      ['Código', 'Nombre', 'Fecha de baja'],
      ['1', 'a;b', ''],
      ['2', 'dice "hola"\nen dos líneas', '01/02/2024'],
    ]);
  });

  it('reads LF and CRLF lines mixed, and reports a quoted field left open at the end, keeping the rows before it', () => {
    expect(parseCsv('"1";"a"\r\n"2";"b"\n"3";"c"\r\n').rows).toEqual([
      ['1', 'a'],
      ['2', 'b'],
      ['3', 'c'],
    ]);
    const { rows, problems } = parseCsv('"1";"a"\n"2";"b\n3;c\n');
    expect(rows).toEqual([['1', 'a']]);
    expect(problems).toEqual([{ line: expect.any(Number), message: expect.stringMatching(/quote/i) }]);
  });

  it('reads catalogue dates dd/mm/yyyy as ISO days and refuses impossible ones', () => {
    expect(catalogueDay('05/06/2025')).toBe('2025-06-05');
    expect(catalogueDay('5/6/2025')).toBe('2025-06-05');
    expect(catalogueDay('')).toBe('');
    expect(catalogueDay('31/02/2025')).toBeNull();
    expect(catalogueDay('2025-06-05')).toBeNull();
  });

  it('parses every official catalogue the gateway uses, without a problem', () => {
    for (const catalogue of catalogueNames) {
      const { entries, problems } = parseCatalogue(
        catalogue,
        decodeCatalogue(readFileSync(path.join(SIEX_DIR, CATALOGUES[catalogue].file))),
      );
      expect({ catalogue, problems }).toEqual({ catalogue, problems: [] });
      expect(entries.length).toBeGreaterThan(2);
    }
  });

  it('keeps names, scientific names, EPPO codes and the three dates of the official rows', () => {
    const read = (c: keyof typeof CATALOGUES) =>
      parseCatalogue(c, decodeCatalogue(readFileSync(path.join(SIEX_DIR, CATALOGUES[c].file)))).entries;
    const units = read('UNIDADES_MEDIDA');
    expect(units.find((u) => u.code === '14')).toMatchObject({ name: '%', from: '2023-09-20', until: '' });
    expect(units.find((u) => u.code === '17')?.name).toBe('kg/ha');
    expect(units.find((u) => u.code === '45')?.name).toBe('€/ha');
    expect(units.find((u) => u.code === '15')).toMatchObject({ name: 'Unidades/m²', modified: '2025-06-05' });
    const diseases = read('ENFERMEDADES');
    expect(diseases.find((d) => d.code === '148')).toMatchObject({
      name: 'Oídio de la vid, Erysiphe necator',
      scientific: 'Erysiphe necator',
      eppo: 'UNCINE',
      path: '8.30.2.6',
    });
    const crops = read('PRODUCTOS');
    expect(crops.find((c) => c.code === '102')).toMatchObject({ name: 'VIÑA', eppo: 'VITVI', until: '' });
    // Withdrawn crops carry their Fecha de baja: codes are end-dated, never removed.
    expect(crops.filter((c) => c.until).length).toBeGreaterThan(50);
    expect(crops.find((c) => c.code === '15')?.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('reads PROD_VEGETAL, a row per product and crop, as one entry per product with the crops of its rows in force', () => {
    const { entries, problems } = parseCatalogue(
      'PROD_VEGETAL',
      decodeCatalogue(readFileSync(path.join(SIEX_DIR, 'PROD_VEGETAL.csv'))),
    );
    expect(problems).toEqual([]);
    const byCode = new Map(entries.map((e) => [e.code, e]));
    expect(byCode.get('1')).toMatchObject({ name: 'Aceitunas', path: '2.1.5.9.', crops: ['101', '363'], until: '' });
    // Algarrobas: ALGARROBA (248) ended on 26-05-2025, ALGARROBO (122) entered that day
    expect(byCode.get('9')).toMatchObject({ name: 'Algarrobas (vainas de algarrobo)', crops: ['122'], until: '' });
    expect(byCode.get('9')?.from).toBe('2023-05-24');
    expect(byCode.get('85')).toMatchObject({ name: 'Granos de trigo', crops: ['1', '2', '3', '325', '393', '394'] });
    // "2.20.1.8. " in the file: the code is trimmed like every cell
    expect(byCode.get('172')).toMatchObject({ name: 'Simiente de arroz', path: '2.20.1.8.', crops: ['80'] });
  });

  it("reads only the fertilization scope's rows of the good practices, each code once", () => {
    const { entries, problems } = parseCatalogue(
      'BUENAS_PRACTICAS_FERTILIZACION',
      decodeCatalogue(readFileSync(path.join(SIEX_DIR, 'BUENAS_PRACTICAS_AMBITOS.csv'))),
    );
    expect(problems).toEqual([]);
    const codes = entries.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    // 15 (slurry buried within 4 hours) is a fertilization practice; 21 (irrigation doses) and 23 (drip irrigation)
    // are irrigation's alone.
    expect(entries.find((e) => e.code === '15')?.name).toMatch(/^Enterrado de purines/);
    expect(codes).not.toContain('21');
    expect(codes).not.toContain('23');
  });

  it('reports a row it cannot read with its line and still imports the others', () => {
    const text = [
      '"Código SIEX";"Eficacia del tratamiento";Fecha de alta;Fecha de modificación;Fecha de baja',
      '"1";"Buena";01/02/2023;;',
      '"2";"Regular";2023-02-01;;',
      ';"Sin código";01/02/2023;;',
      '"1";"Buena otra vez";01/02/2023;;31/12/2025',
    ].join('\n');
    const { entries, problems } = parseCatalogue('EFICACIA_TRATAMIENTO', text);
    expect(entries).toEqual([
      { code: '1', name: 'Buena otra vez', from: '2023-02-01', modified: '', until: '2025-12-31' },
    ]);
    expect(problems.map((p) => p.line)).toEqual([3, 4, 5]);
    expect(problems[0].message).toContain('Fecha de alta');
  });

  it('refuses a file whose header lacks the expected columns, naming them', () => {
    const { entries, problems } = parseCatalogue('UNIDADES_MEDIDA', '"Código";"Unidad"\n"1";"m2"\n');
    expect(entries).toEqual([]);
    expect(problems[0].message).toContain('Unidades de medida');
  });
});
