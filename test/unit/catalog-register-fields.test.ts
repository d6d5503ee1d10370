import { registerCode } from '../../shared/catalog/register/code';
import {
  maxApplications,
  minIntervalDays,
  registerDay,
  registerNumber,
  safetyDays,
} from '../../shared/catalog/register/fields';
import { PRODUCT_CODE_RE } from '../../shared/domain/nif';

describe('register numbers to API codes ES-XXXXX', () => {
  it.each([
    ['11179', 'ES-11179', 'legacy'],
    ['25999', 'ES-25999', 'legacy'],
    [' 2309 ', 'ES-02309', 'legacy'],
    ['011179', 'ES-11179', 'legacy'],
    ['ES-00064', 'ES-00064', 'es'],
    ['ES-02112', 'ES-02112', 'es'],
    ['es-64', 'ES-00064', 'es'],
    ['ES00065', 'ES-00065', 'es'],
    ['ES-000065', 'ES-00065', 'es'],
  ])('%s -> %s', (raw, code, numbering) => {
    const result = registerCode(raw);
    expect(result).toEqual({ ok: true, code, numbering, raw: raw.trim() });
    if (result.ok) expect(result.code).toMatch(PRODUCT_CODE_RE);
  });

  it('accepts a number given as a JSON number', () => {
    expect(registerCode(11179)).toMatchObject({ ok: true, code: 'ES-11179' });
  });

  it.each(['123456', 'ES-123456', 'ES-ABC', 'SYN-00001', ''])('refuses %s', (raw) => {
    expect(registerCode(raw).ok).toBe(false);
  });
});

describe('register fields', () => {
  it('reads dates aaaa/mm/dd (and ISO, and dd/mm/aaaa) as DD-MM-YYYY', () => {
    expect(registerDay('2027/07/31')).toBe('31-07-2027');
    expect(registerDay('2011-06-15T00:00:00')).toBe('15-06-2011');
    expect(registerDay('1/3/2026')).toBe('01-03-2026');
    expect(registerDay('')).toBeUndefined();
    expect(registerDay('2027/02/30')).toBeNull();
    expect(registerDay('pendiente')).toBeNull();
  });

  it('reads numbers written as numbers, with a decimal comma, or missing', () => {
    expect(registerNumber(8.0e1)).toBe(80);
    expect(registerNumber('0,25')).toBe(0.25);
    expect(registerNumber(null)).toBeUndefined();
    expect(registerNumber('')).toBeUndefined();
    expect(registerNumber('mucho')).toBeNull();
  });

  it('reads the safety period: NO PROCEDE / NP is 0 days; several figures give the longest', () => {
    // issue 23: none applies is not 0 days
    expect(safetyDays('NO PROCEDE')).toBe('NP');
    expect(safetyDays('NP')).toBe('NP');
    expect(safetyDays('no procede')).toBe('NP');
    expect(safetyDays('0')).toBe(0);
    expect(safetyDays('21')).toBe(21);
    expect(safetyDays('3 (INVERNADERO)')).toBe(3);
    expect(safetyDays('90 (ACLAREO DE FRUTOS)7 (EVITAR CAÍDA DE FRUTOS)')).toBe(90);
    expect(safetyDays('')).toBeUndefined();
    expect(safetyDays('ver etiqueta')).toBeNull();
  });

  it('reads the applications: a number, or a range whose upper bound is the maximum', () => {
    expect(maxApplications('1-3')).toBe(3);
    expect(maxApplications('2 - 4')).toBe(4);
    expect(maxApplications('3')).toBe(3);
    expect(maxApplications(2)).toBe(2);
    expect(maxApplications('Máx. 2 por campaña')).toBe(2);
    expect(maxApplications('NO PROCEDE')).toBeUndefined();
    expect(maxApplications('')).toBeUndefined();
    expect(maxApplications(0)).toBeUndefined();
    expect(maxApplications('1,5')).toBeNull();
    expect(maxApplications('varias')).toBeNull();
  });

  it('reads the interval between applications: the lower bound of a range is the minimum', () => {
    expect(minIntervalDays('7-10')).toBe(7);
    expect(minIntervalDays('10 - 14 días')).toBe(10);
    expect(minIntervalDays('14')).toBe(14);
    expect(minIntervalDays(7)).toBe(7);
    expect(minIntervalDays('')).toBeUndefined();
  });
});
