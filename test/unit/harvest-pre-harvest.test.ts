import { DateTime } from 'luxon';
import { ReferenceData } from '../../shared/catalog/reference-data';
import { FarmIndex } from '../../shared/farms/farm-index';
import { sigpacCode } from '../../shared/farms/sigpac';
import { harvestKind } from '../../shared/harvest/harvest-kind';
import { buildRecord } from '../../shared/phyto/record-view';
import { holdExcerpt, safeHarvestDays, treatmentHolds } from '../../shared/phyto/safe-harvest';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { decidingHold, HarvestHold, holdsSince, safeDayOf } from '../../shared/rules/harvest-holds';
import { grapesBody, harvestFarm } from '../helpers/harvest-fixtures';
import { farmIndexDoc, madrid, microthiol, phytoRequest, testSiexCodes } from '../helpers/phyto-fixtures';

/**
 * Issue 34, items 1 (the pre-harvest interval) and 7 (safe harvest, right): the harvest holds the treatments publish
 * (shared/rules/harvest-holds.ts), as a harvest is judged by them through the port and as the safe-harvest view reads
 * them: at the boundary day, across New Year, "NP" holding nothing, and each crop of a record held for its own.
 */
const farm = harvestFarm();
const vine = farm.byIdcp.get(101)!;
const olive = farm.byIdcp.get(201)!;
const hold = (o: Partial<HarvestHold> = {}): HarvestHold => ({
  enclosure: sigpacCode(vine),
  crop: '102',
  record: 'urn:ngsi-ld:AgriPhytosanitary:5',
  product: { code: 'ES-11179', name: 'MICROTHIOL SPECIAL DISPERSS' },
  applied: '2026-05-01',
  days: 10,
  ...o,
});

describe('a harvest hold', () => {
  it('ends on the application day plus its days, across New Year too', () => {
    expect(safeDayOf(hold())).toBe('2026-05-11');
    expect(safeDayOf(hold({ applied: '2025-12-20', days: 21 }))).toBe('2026-01-10');
    expect(safeDayOf(hold({ days: 0 }))).toBe('2026-05-01');
  });

  it('is decided by the latest end of the applications on or before the day, on the same enclosure and crop', () => {
    const holds = [hold(), hold({ applied: '2026-05-03', days: 3 }), hold({ applied: '2026-05-20', days: 30 })];
    expect(decidingHold(holds, sigpacCode(vine), '102', '2026-05-10')?.safeDay).toBe('2026-05-11');
    // The application of the 20th does not hold a harvest on the 12th, nor does another crop or enclosure.
    expect(decidingHold(holds, sigpacCode(vine), '102', '2026-05-12')?.safeDay).toBe('2026-05-11');
    expect(decidingHold(holds, sigpacCode(vine), '101', '2026-05-10')).toBeUndefined();
    expect(decidingHold(holds, sigpacCode(olive), '102', '2026-05-10')).toBeUndefined();
  });

  it('is read from the previous campaign on', () => {
    expect(holdsSince('2026-01-05').toISODate()).toBe('2025-01-01');
  });
});

describe('the pre-harvest interval of a harvest', () => {
  const reference = { products: new Map(), applicators: new Map(), codes: testSiexCodes() };
  const judge = (body: Record<string, unknown>, facts: unknown[], on: string) => {
    const request = harvestKind.toRequest(body);
    return harvestKind.judge({
      request,
      appliedAt: harvestKind.appliedAt(request),
      now: madrid(`${on} 20:00:00`),
      window: null,
      farm,
      history: new Map(),
      own: null,
      reference,
      facts,
    }).violations;
  };

  it('refuses a harvest the day before the safe day, at the location, naming product, day and safe day', () => {
    expect(harvestKind.facts?.topic).toBe('harvest-holds');
    expect(judge(grapesBody({ dateStart: '10-05-2026', idcp: ['102', '101'] }), [hold()], '10-05-2026')).toEqual([
      {
        code: 'PRE_HARVEST_INTERVAL_NOT_MET',
        path: 'body.idcp[1]',
        message:
          'ES-11179 (MICROTHIOL SPECIAL DISPERSS) was applied on 01-05-2026 to VIÑA on SIGPAC enclosure ' +
          `${sigpacCode(vine)}, with a pre-harvest interval of 10 days: it may be harvested from 11-05-2026 ` +
          '(urn:ngsi-ld:AgriPhytosanitary:5)',
      },
    ]);
    expect(judge(grapesBody({ dateStart: '11-05-2026' }), [hold()], '11-05-2026')).toEqual([]);
  });

  it('holds a harvest across New Year: a 21-day treatment of 20-12-2025 holds it until 10-01-2026', () => {
    const december = hold({ applied: '2025-12-20', days: 21 });
    const codes = (day: string) => judge(grapesBody({ dateStart: day }), [december], day).map((v) => v.code);
    expect(codes('09-01-2026')).toEqual(['PRE_HARVEST_INTERVAL_NOT_MET']);
    expect(codes('10-01-2026')).toEqual([]);
  });

  it('counts a treatment during a harvest of several days, not one after its last day', () => {
    const during = hold({ applied: '2026-05-12', days: 3 });
    const codes = (end: string) =>
      judge(grapesBody({ dateStart: '11-05-2026', dateEnd: end }), [during], end).map((v) => v.code);
    expect(codes('12-05-2026')).toEqual(['PRE_HARVEST_INTERVAL_NOT_MET']);
    expect(codes('11-05-2026')).toEqual([]);
  });
});

describe('the holds a treatment publishes', () => {
  const product = microthiol();
  const pest = product.uses[0].pest;
  const use = (crop: string, safetyDays: number | 'NP') => ({
    ...product.uses[0],
    cropTypeIds: [crop],
    pest,
    safetyDays,
  });
  const record = (seclimit: string, idcp = ['101', '201'], at = '20-12-2025 10:00:00') => ({
    ...buildRecord(
      1,
      treatmentFromWire(phytoRequest({ idcp, dateApplication: at })),
      product,
      { entries: [], uses: [] },
      farm,
      false,
      madrid(at),
    ),
    seclimit,
  });
  const withUses = (uses: ReturnType<typeof use>[]): ReferenceData => ({
    products: new Map([[product.code, { ...product, uses }]]),
    applicators: new Map(),
    codes: testSiexCodes(),
  });

  it("holds each crop of a record for its own crop's interval, not the longest of the record", () => {
    const holds = treatmentHolds(holdExcerpt(record('10')), farm, withUses([use('102', 10), use('101', 3)]));
    expect(holds.map((h) => [h.crop, h.days, h.applied])).toEqual([
      ['102', 10, '2025-12-20'],
      ['101', 3, '2025-12-20'],
    ]);
    // Without the register at hand, the record's own interval.
    expect(treatmentHolds(holdExcerpt(record('10')), farm).map((h) => h.days)).toEqual([10, 10]);
  });

  it('holds nothing for "NP" (NO PROCEDE) or an interval no use states', () => {
    expect(treatmentHolds(holdExcerpt(record('NP')), farm, withUses([use('102', 'NP'), use('101', 'NP')]))).toEqual([]);
    expect(treatmentHolds(holdExcerpt(record('NP')), farm)).toEqual([]);
    expect(treatmentHolds(holdExcerpt(record('')), farm)).toEqual([]);
  });

  it('is what the safe-harvest view reads, across campaigns: oranges of 20-12-2025 (21 days) safe on 10-01-2026', () => {
    // The 2025 campaign's farm on the same ground: its treatment holds the 2026 campaign's enclosure and crop.
    const farm2025 = new FarmIndex({ ...farmIndexDoc(), meta: { ...farmIndexDoc().meta, year: 2025 } });
    const holds = treatmentHolds(holdExcerpt(record('21', ['101'])), farm2025);
    const on = (day: string) =>
      safeHarvestDays(holds, farm, DateTime.fromISO(day, { zone: 'Europe/Madrid' })).find((d) => d.idcp === 101);
    expect(on('2026-01-05')).toMatchObject({ earliestHarvest: '10-01-2026', safeOn: false });
    expect(on('2026-01-09')).toMatchObject({ safeOn: false });
    expect(on('2026-01-10')).toMatchObject({
      earliestHarvest: '10-01-2026',
      safeOn: true,
      setBy: { record: 'urn:ngsi-ld:AgriPhytosanitary:1', applied: '20-12-2025', seclimit: '21' },
    });
    // An application after the day asked does not count: on 19-12-2025 nothing held the ground yet.
    expect(on('2025-12-19')).toMatchObject({ earliestHarvest: null, safeOn: true, setBy: null });
  });
});
