import { DateTime } from 'luxon';
import { formatDate, formatDateTime, isoDay, parseDate, parseDateTime, ZONE } from '../../shared/domain/dates';

describe('parseDate (DD-MM-YYYY)', () => {
  it('accepts real days, leap days included', () => {
    expect(parseDate('01-01-2026')?.toISODate()).toBe('2026-01-01');
    expect(parseDate('31-12-2026')?.toISODate()).toBe('2026-12-31');
    expect(parseDate('29-02-2028')?.toISODate()).toBe('2028-02-29');
  });

  it('reads the day in Madrid time', () => {
    expect(parseDate('15-06-2026')!.zoneName).toBe(ZONE);
    expect(parseDate('15-06-2026')!.toISO()).toBe('2026-06-15T00:00:00.000+02:00');
  });

  it.each(['31-02-2026', '29-02-2026', '31-04-2026', '00-01-2026', '32-01-2026', '15-13-2026', '15-00-2026'])(
    'rejects the day that does not exist: %s',
    (text) => expect(parseDate(text)).toBeNull(),
  );

  it.each([
    '1-2-2026',
    '2026-02-01',
    '01/02/2026',
    '01-02-26',
    ' 01-02-2026',
    '01-02-2026 ',
    '01-02-2026 00:00:00',
    '',
  ])('rejects a malformed date: %j', (text) => expect(parseDate(text)).toBeNull());
});

describe('parseDateTime (DD-MM-YYYY HH:mm:ss, Europe/Madrid)', () => {
  it('reads winter (CET, +01:00) and summer (CEST, +02:00) times', () => {
    expect(parseDateTime('15-01-2026 10:20:30')!.toUTC().toISO()).toBe('2026-01-15T09:20:30.000Z');
    expect(parseDateTime('15-07-2026 10:20:30')!.toUTC().toISO()).toBe('2026-07-15T08:20:30.000Z');
  });

  it('rejects a wall-clock time in the hour skipped when summer time starts (29-03-2026 02:00-02:59)', () => {
    expect(parseDateTime('29-03-2026 02:30:00')).toBeNull();
    expect(parseDateTime('29-03-2026 02:00:00')).toBeNull();
    expect(parseDateTime('29-03-2026 02:59:59')).toBeNull();
  });

  it('accepts the times either side of the skipped hour', () => {
    expect(parseDateTime('29-03-2026 01:59:59')!.toUTC().toISO()).toBe('2026-03-29T00:59:59.000Z');
    expect(parseDateTime('29-03-2026 03:00:00')!.toUTC().toISO()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('accepts a time in the hour repeated when summer time ends, as its first occurrence (CEST)', () => {
    const d = parseDateTime('25-10-2026 02:30:00');
    expect(d).not.toBeNull();
    expect(d!.offset).toBe(120);
    expect(d!.toUTC().toISO()).toBe('2026-10-25T00:30:00.000Z');
  });

  it.each(['31-02-2026 10:00:00', '15-01-2026 24:00:00', '15-01-2026 23:60:00', '15-01-2026 23:59:60'])(
    'rejects an impossible day or time: %s',
    (text) => expect(parseDateTime(text)).toBeNull(),
  );

  it.each(['15-01-2026', '15-01-2026 10:20', '15-01-2026T10:20:30', '2026-01-15 10:20:30', '15-01-2026 1:20:30', ''])(
    'rejects a malformed time: %j',
    (text) => expect(parseDateTime(text)).toBeNull(),
  );

  it('round-trips every well-formed text it accepts', () => {
    for (const text of ['01-01-2026 00:00:00', '29-03-2026 03:00:00', '25-10-2026 02:30:00', '31-12-2026 23:59:59']) {
      expect(formatDateTime(parseDateTime(text)!)).toBe(text);
    }
  });
});

describe('formatDate / formatDateTime', () => {
  it('writes any instant as Madrid local time', () => {
    expect(formatDateTime(DateTime.fromISO('2026-01-15T23:30:00Z'))).toBe('16-01-2026 00:30:00');
    expect(formatDate(DateTime.fromISO('2026-01-15T23:30:00Z'))).toBe('16-01-2026');
    expect(formatDateTime(DateTime.fromISO('2026-07-15T08:20:30Z'))).toBe('15-07-2026 10:20:30');
  });

  it('writes both instants of the repeated hour with the same wall-clock text', () => {
    expect(formatDateTime(DateTime.fromISO('2026-10-25T00:30:00Z'))).toBe('25-10-2026 02:30:00');
    expect(formatDateTime(DateTime.fromISO('2026-10-25T01:30:00Z'))).toBe('25-10-2026 02:30:00');
  });
});

describe('isoDay', () => {
  it('turns DD-MM-YYYY into an ISO day that sorts as text', () => {
    expect(isoDay('05-03-2026')).toBe('2026-03-05');
    expect(isoDay('31-12-2025') < isoDay('01-01-2026')).toBe(true);
  });
});
