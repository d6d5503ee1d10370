import { CronSchedule } from '../../local/runner/timer-trigger';
import { SWEEP_EVERY_MS, SWEEP_SCHEDULE } from '../../shared/export/job-lease';

const at = (iso: string) => new Date(iso);

describe('CronSchedule (NCRONTAB, UTC)', () => {
  it('reads seconds first, with steps, ranges and lists', () => {
    const every30 = new CronSchedule('*/30 * * * * *');
    expect(every30.matches(at('2026-03-01T10:00:30Z'))).toBe(true);
    expect(every30.matches(at('2026-03-01T10:00:31Z'))).toBe(false);
    expect(every30.next(at('2026-03-01T10:00:30.500Z'))).toEqual(at('2026-03-01T10:01:00Z'));
    const office = new CronSchedule('0 0,30 9-17 * * 1-5');
    expect(office.next(at('2026-03-06T17:30:00Z'))).toEqual(at('2026-03-09T09:00:00Z'));
    expect(new CronSchedule('*/5 * * * *').next(at('2026-03-01T10:01:00Z'))).toEqual(at('2026-03-01T10:05:00Z'));
  });

  it('refuses what it cannot read rather than never firing', () => {
    for (const bad of ['* * * *', '61 * * * * *', '*/0 * * * * *', '5-2 * * * * *'])
      expect(() => new CronSchedule(bad)).toThrow(/schedule/);
  });

  it('reads NCRONTAB as the Functions host does: month and day names, a/n steps, and a day must match both day fields', () => {
    expect(new CronSchedule('0 0 12 * JAN *').next(at('2026-03-01T00:00:00Z'))).toEqual(at('2027-01-01T12:00:00Z'));
    expect(new CronSchedule('0 0 12 * * MON').next(at('2026-03-01T00:00:00Z'))).toEqual(at('2026-03-02T12:00:00Z'));
    expect(new CronSchedule('5/15 * * * * *').next(at('2026-03-01T10:00:21Z'))).toEqual(at('2026-03-01T10:00:35Z'));
    // Friday the 13th (NCrontab), not every Friday and every 13th (Vixie cron).
    expect(new CronSchedule('0 0 0 13 * 5').next(at('2026-01-01T00:00:00Z'))).toEqual(at('2026-02-13T00:00:00Z'));
  });

  it('fires the export sweeper every SWEEP_EVERY_MS', () => {
    const sweep = new CronSchedule(SWEEP_SCHEDULE);
    const first = sweep.next(at('2026-03-01T10:00:00.100Z'))!;
    expect(sweep.next(first)!.getTime() - first.getTime()).toBe(SWEEP_EVERY_MS);
  });
});
