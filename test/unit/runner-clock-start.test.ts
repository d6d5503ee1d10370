import { DateTime } from 'luxon';
import { startClockAt } from '../../local/runner/clock-start';

/** The runner's --clock-start moves every reading of the time at once, and only in a local stack. */
describe("the runner's clock start", () => {
  const RealDate = Date;
  afterEach(() => {
    globalThis.Date = RealDate;
  });

  it('moves Date.now, new Date() and luxon together to the instant given, and leaves explicit dates alone', () => {
    const start = Date.UTC(2026, 0, 1, 0, 5);
    const before = RealDate.now();
    startClockAt(start, { AUTH_MODE: 'local' });
    const readings = [Date.now(), new Date().getTime()];
    const elapsed = RealDate.now() - before;
    // The clock runs on from the start: each reading is behind it by no more than the real time that passed.
    for (const reading of readings) {
      expect(reading).toBeGreaterThanOrEqual(start);
      expect(reading - start).toBeLessThanOrEqual(elapsed);
    }
    expect(DateTime.now().setZone('Europe/Madrid').toFormat('yyyy-MM-dd HH')).toBe('2026-01-01 01');
    expect(new Date(0).getTime()).toBe(0);
    expect(new Date('2026-05-01T00:00:00Z').getTime()).toBe(RealDate.UTC(2026, 4, 1));
    expect(Date.UTC(2026, 4, 1)).toBe(RealDate.UTC(2026, 4, 1));
    expect(new Date()).toBeInstanceOf(RealDate);
    expect(typeof Date()).toBe('string');
  });

  it('is refused outside a local stack', () => {
    expect(() => startClockAt(0, { AUTH_MODE: 'apim' })).toThrow('AUTH_MODE=local');
    expect(() => startClockAt(0, {})).toThrow('AUTH_MODE=local');
    expect(globalThis.Date).toBe(RealDate);
  });
});
