import { DateTime } from 'luxon';
import { hasExpired } from '../../shared/clients/client-expiry';

/** One rule ends a client's requests and its webhook events alike (shared/clients/client-expiry.ts). */
describe('a client expiry', () => {
  const at = (iso: string) => () => DateTime.fromISO(iso, { zone: 'Europe/Madrid' });

  it('lasts to the end of its day in Madrid, whatever the zone of the clock', () => {
    expect(hasExpired('2026-06-30', at('2026-06-30T23:59:59'))).toBe(false);
    expect(hasExpired('2026-06-30', at('2026-07-01T00:00:00'))).toBe(true);
    // 22:30 UTC on the 30th is already the 1st in Madrid (summer time, UTC+2).
    expect(hasExpired('2026-06-30', () => DateTime.fromISO('2026-06-30T22:30:00Z', { zone: 'utc' }))).toBe(true);
  });

  it('never comes for a client without one, and then reads no clock', () => {
    expect(
      hasExpired('', () => {
        throw new Error('the clock was read');
      }),
    ).toBe(false);
  });
});
