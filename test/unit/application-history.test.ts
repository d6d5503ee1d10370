import { DateTime } from 'luxon';
import {
  clashWithin,
  countInCampaign,
  dayCountsSchema,
  dayOf,
  DayCounts,
  KEPT_CAMPAIGNS,
  withApplication,
} from '../../shared/phyto/application-history';

const add = (days: DayCounts, ...dates: string[]) => dates.reduce((d, day) => withApplication(d, day, 1), days);

describe('application history: applications per Madrid calendar day', () => {
  it("the day of an instant is Madrid's: 31-12 23:30 UTC is already 01-01 in Madrid", () => {
    expect(dayOf(DateTime.fromISO('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(dayOf(DateTime.fromISO('2026-12-31T22:30:00Z'))).toBe('2026-12-31');
    expect(dayOf(DateTime.fromISO('2026-03-29T00:30:00Z'))).toBe('2026-03-29');
  });

  it('counts per day and per campaign; removing the last one of a day drops the day', () => {
    const days = add({}, '2026-05-01', '2026-05-01', '2026-06-01', '2025-12-31');
    expect(days).toEqual({ '2026-05-01': 2, '2026-06-01': 1, '2025-12-31': 1 });
    expect(countInCampaign(days, 2026)).toBe(3);
    expect(countInCampaign(days, 2025)).toBe(1);
    expect(countInCampaign(days, 2024)).toBe(0);
    const fewer = withApplication(withApplication(days, '2026-06-01', -1), '2026-05-01', -1);
    expect(fewer).toEqual({ '2026-05-01': 1, '2025-12-31': 1 });
    expect(withApplication({}, '2026-05-01', -1)).toEqual({});
  });

  it(`stays bounded: only the newest ${KEPT_CAMPAIGNS} campaigns are kept, whatever the number of applications`, () => {
    let days: DayCounts = {};
    for (let i = 0; i < 10_000; i++) days = withApplication(days, '2026-05-01', 1);
    expect(days).toEqual({ '2026-05-01': 10_000 });
    for (const year of [2020, 2021, 2022, 2023, 2024, 2025, 2026, 2027])
      for (let month = 1; month <= 12; month++)
        days = withApplication(days, DateTime.utc(year, month, 1).toISODate()!, 1);
    const years = new Set(Object.keys(days).map((d) => d.slice(0, 4)));
    expect([...years].sort()).toEqual(['2025', '2026', '2027']);
    // The largest row there can be, every day of the three campaigns kept, fits well within Table Storage's 64 KiB.
    const start = DateTime.utc(2025, 1, 1);
    const full = Object.fromEntries(
      Array.from({ length: start.plus({ years: 3 }).diff(start, 'days').days }, (_, d) => [
        start.plus({ days: d }).toISODate()!,
        9,
      ]),
    );
    const largest = withApplication(full, '2027-12-31', 1);
    expect(Object.keys(largest)).toHaveLength(3 * 365);
    expect(JSON.stringify(largest).length).toBeLessThan(24 * 1024);
    expect(dayCountsSchema.parse(largest)).toEqual(largest);
  });

  it('an interval clashes with an application fewer calendar days away, either side; exactly met passes', () => {
    const days = add({}, '2026-05-07', '2026-05-21');
    expect(clashWithin(days, '2026-05-14', 7)).toBeUndefined();
    expect(clashWithin(days, '2026-05-13', 7)).toBe('2026-05-07');
    expect(clashWithin(days, '2026-05-15', 7)).toBe('2026-05-21');
    expect(clashWithin(days, '2026-05-07', 1)).toBe('2026-05-07');
    expect(clashWithin(days, '2026-05-08', 1)).toBeUndefined();
    expect(clashWithin(days, '2026-05-07', 0)).toBeUndefined();
  });

  it('counts calendar days, not 24-hour periods, across summer time and New Year', () => {
    expect(clashWithin(add({}, '2026-03-25'), '2026-04-01', 7)).toBeUndefined();
    expect(clashWithin(add({}, '2026-10-22'), '2026-10-29', 7)).toBeUndefined();
    expect(clashWithin(add({}, '2026-12-29'), '2027-01-02', 5)).toBe('2026-12-29');
    expect(clashWithin(add({}, '2026-12-28'), '2027-01-02', 5)).toBeUndefined();
  });

  it('refuses a stored row that is not day counts', () => {
    for (const bad of [{ '2026-5-1': 1 }, { '2026-05-01': 0 }, { '2026-05-01': 1.5 }, { x: 1 }])
      expect(dayCountsSchema.safeParse(bad).success).toBe(false);
  });
});
