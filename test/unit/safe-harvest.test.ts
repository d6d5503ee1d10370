import { PhytoRecord } from '../../shared/phyto/wire-record';
import { FarmIndex } from '../../shared/farms/farm-index';
import { harvestDay, safeHarvest } from '../../shared/phyto/safe-harvest';
import { buildRecord } from '../../shared/phyto/record-view';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { DomainError } from '../../shared/domain/errors';
import { farmIndexDoc, madrid, microthiol, phytoRequest } from '../helpers/phyto-fixtures';

/**
 * When each crop location may be harvested (shared/phyto/safe-harvest.ts): calendar days from the Madrid application
 * day, the latest end over every treatment and every product of a mix, "NP" and an unstated interval limiting nothing.
 */
const farm = new FarmIndex(farmIndexDoc());
const product = microthiol();
const base = buildRecord(
  1,
  treatmentFromWire(phytoRequest({ idcp: ['101'] })),
  product,
  { entries: [], uses: [] },
  farm,
  false,
  madrid('01-05-2026 10:00:00'),
);

function treatment(
  id: number,
  at: string,
  idcp: string[],
  seclimit: string,
  mix: [string, string][] = [],
): PhytoRecord {
  const other = (code: string) => ({
    ...base.subtype!,
    subtype: { ...base.subtype!.subtype, code },
    name: `P ${code}`,
  });
  return {
    ...base,
    id: `urn:ngsi-ld:AgriPhytosanitary:${id}`,
    dateApplication: at,
    idcp,
    seclimit,
    ...(mix.length > 0
      ? {
          mix: mix.map(([code, days]) => ({
            subtype: other(code),
            dose: '1',
            measure: base.measure!,
            dt: '',
            mdt: null,
            batch: '',
            infection: null,
            seclimit: days,
          })),
        }
      : {}),
  };
}

const at = (records: PhytoRecord[], day: string) =>
  new Map(safeHarvest(records, farm, madrid(`${day} 12:00:00`)).map((e) => [String(e.idcp), e]));

describe('safe harvest', () => {
  it('ends an interval on the application day plus its days, whatever the hour or a summer-time change', () => {
    // 28-03-2026 23:30 plus 3 calendar days (summer time starts on the 29th) is the 31st.
    const got = at([treatment(1, '28-03-2026 23:30:00', ['101'], '3')], '30-03-2026').get('101')!;
    expect([got.earliestHarvest, got.safeOn, got.setBy?.applied]).toEqual(['31-03-2026', false, '28-03-2026']);
    expect(at([treatment(1, '28-03-2026 23:30:00', ['101'], '3')], '31-03-2026').get('101')!.safeOn).toBe(true);
    expect(at([treatment(1, '28-03-2026 08:00:00', ['101'], '0')], '28-03-2026').get('101')).toMatchObject({
      earliestHarvest: '28-03-2026',
      safeOn: true,
    });
  });

  it('takes the latest end over every treatment of a location, and names the one that set it', () => {
    const records = [
      treatment(1, '10-05-2026 08:00:00', ['101', '102'], '7'),
      treatment(2, '01-05-2026 08:00:00', ['101'], '21'),
      treatment(3, '12-05-2026 08:00:00', ['102'], 'NP'),
      treatment(4, '13-05-2026 08:00:00', ['103'], ''),
    ];
    const got = at(records, '15-05-2026');
    expect(got.get('101')!.setBy).toEqual({
      record: 'urn:ngsi-ld:AgriPhytosanitary:2',
      product: { code: base.subtype!.subtype.code, name: base.subtype!.name },
      applied: '01-05-2026',
      seclimit: '21',
    });
    expect(got.get('101')!.earliestHarvest).toBe('22-05-2026');
    expect(got.get('102')!.earliestHarvest).toBe('17-05-2026');
    for (const free of ['103', '201', '301'])
      expect(got.get(free)).toMatchObject({ earliestHarvest: null, safeOn: true, setBy: null });
    expect([...got.keys()]).toEqual(['101', '102', '103', '201', '301']);
    expect(got.get('201')!.crop).toEqual({
      typecrop: { id: farm.cropOf(farm.byIdcp.get(201)!).typecropId, name: expect.any(String) },
      code: expect.any(Number),
      name: expect.any(String),
    });
  });

  it("credits a mix's longest interval to the mixed product that has it, else to the main product", () => {
    const byMix = at(
      [
        treatment(1, '10-05-2026 08:00:00', ['101'], '14', [
          ['ES-00001', 'NP'],
          ['ES-00002', '14'],
        ]),
      ],
      '11-05-2026',
    );
    expect(byMix.get('101')!.setBy).toMatchObject({ product: { code: 'ES-00002' }, seclimit: '14' });
    const byMain = at([treatment(1, '10-05-2026 08:00:00', ['101'], '14', [['ES-00001', '3']])], '11-05-2026');
    expect(byMain.get('101')!.setBy).toMatchObject({ product: { code: base.subtype!.subtype.code }, seclimit: '14' });
    const none = at([treatment(1, '10-05-2026 08:00:00', ['101'], 'NP', [['ES-00001', 'NP']])], '11-05-2026');
    expect(none.get('101')!.earliestHarvest).toBeNull();
  });

  it('reads the day asked about, or today in Madrid, and refuses one that is not a day', () => {
    const now = madrid('31-12-2026 23:30:00').toUTC();
    expect(harvestDay(undefined, now).toFormat('dd-MM-yyyy')).toBe('31-12-2026');
    expect(harvestDay('01-01-2027', now).toFormat('dd-MM-yyyy')).toBe('01-01-2027');
    expect(() => harvestDay('30-02-2027', now)).toThrow(DomainError);
  });
});
