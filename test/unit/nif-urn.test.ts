import fc from 'fast-check';
import { isValidPersonalNif, normalizeNif, PRODUCT_CODE_RE, ROPO_RE } from '../../shared/domain/nif';
import { parseUrn, urn } from '../../shared/domain/urn';

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

describe('NIF / NIE control letter', () => {
  it.each([
    '12345678Z',
    '00000000T',
    '87654321X',
    '71234567W',
    'X1234567L',
    'Y1234567X',
    'Z1234567R',
    '12345678z',
    '12345678-Z',
    ' 1234 5678 Z',
  ])('accepts the valid id %j', (nif) => expect(isValidPersonalNif(nif)).toBe(true));

  it.each([
    '12345678A',
    '00000000R',
    'X1234567M',
    'Y1234567L',
    '1234567Z',
    '123456789Z',
    'W1234567L',
    'A1234567L',
    '12345678',
    'ZZZZZZZZZ',
    '',
  ])('rejects %j', (nif) => expect(isValidPersonalNif(nif)).toBe(false));

  it('accepts exactly one letter for every DNI number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom(...LETTERS), (n, letter) => {
        const digits = String(n).padStart(8, '0');
        expect(isValidPersonalNif(`${digits}${letter}`)).toBe(letter === LETTERS[n % 23]);
      }),
    );
  });

  it('computes the NIE letter with X=0, Y=1, Z=2 prefixed to the number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 2 }), (n, p) => {
        const digits = String(n).padStart(7, '0');
        const letter = LETTERS[Number(`${p}${digits}`) % 23];
        expect(isValidPersonalNif(`${'XYZ'[p]}${digits}${letter}`)).toBe(true);
        const wrong = LETTERS[(Number(`${p}${digits}`) + 1) % 23];
        expect(isValidPersonalNif(`${'XYZ'[p]}${digits}${wrong}`)).toBe(false);
      }),
    );
  });

  it('normalizes case, spaces and hyphens', () => {
    expect(normalizeNif(' x-1234567-l ')).toBe('X1234567L');
  });
});

describe('ROPO and product code forms', () => {
  it('ROPO is ES- and eight digits', () => {
    expect(ROPO_RE.test('ES-46000123')).toBe(true);
    for (const bad of ['ES-4600012', 'ES-460001234', 'es-46000123', 'ES46000123', 'ES-4600012A'])
      expect(ROPO_RE.test(bad)).toBe(false);
  });

  it('product code is ES- and five digits', () => {
    expect(PRODUCT_CODE_RE.test('ES-11179')).toBe(true);
    for (const bad of ['ES-1117', 'ES-111790', 'es-11179', 'ES11179']) expect(PRODUCT_CODE_RE.test(bad)).toBe(false);
  });
});

describe('NGSI-LD URNs', () => {
  it('writes and reads back urn:ngsi-ld:<Type>:<n>', () => {
    expect(urn('AgriFarm', 42)).toBe('urn:ngsi-ld:AgriFarm:42');
    expect(parseUrn('AgriFarm', 'urn:ngsi-ld:AgriFarm:42')).toBe(42);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), (n) =>
        expect(parseUrn('AgriCrop', urn('AgriCrop', n))).toBe(n),
      ),
    );
  });

  it('accepts the bounds 1 and 9999999999 (ten digits, SIEX external ids)', () => {
    expect(parseUrn('AgriFarm', 'urn:ngsi-ld:AgriFarm:1')).toBe(1);
    expect(parseUrn('AgriFarm', 'urn:ngsi-ld:AgriFarm:9999999999')).toBe(9_999_999_999);
  });

  it.each([
    ['zero', 'urn:ngsi-ld:AgriFarm:0'],
    ['eleven digits', 'urn:ngsi-ld:AgriFarm:10000000000'],
    ['a leading zero', 'urn:ngsi-ld:AgriFarm:042'],
    ['a negative number', 'urn:ngsi-ld:AgriFarm:-1'],
    ['a decimal', 'urn:ngsi-ld:AgriFarm:1.5'],
    ['an exponent', 'urn:ngsi-ld:AgriFarm:1e3'],
    ['no number', 'urn:ngsi-ld:AgriFarm:'],
    ['trailing text', 'urn:ngsi-ld:AgriFarm:12abc'],
    ['a trailing space', 'urn:ngsi-ld:AgriFarm:12 '],
    ['another entity type', 'urn:ngsi-ld:AgriCrop:12'],
    ['a type that only starts the same', 'urn:ngsi-ld:AgriFarmX:12'],
    ['another case', 'URN:NGSI-LD:AgriFarm:12'],
    ['a bare number', '12'],
    ['an empty string', ''],
  ])('rejects %s', (_, text) => expect(parseUrn('AgriFarm', text)).toBeNull());
});
