import { Fertilization } from '../../shared/fertilization/fertilization';
import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { fertilizationFarm, manureBody, mineralBody } from '../helpers/fertilization-fixtures';
import { madrid, testSiexCodes } from '../helpers/phyto-fixtures';

/**
 * Issue 25, item 5: the fertilization through the records core's port (shared/records/record-kind.ts), as the core
 * drives a kind: a request mapped to its domain value, judged against the history rows its change reads, the rows
 * updated as the commit writes them, the view, and the CUE blocks.
 */
describe('the fertilization record kind', () => {
  const kind = fertilizationKind;
  const reference = { products: new Map(), applicators: new Map(), codes: testSiexCodes() };
  const updated = (rows: ReadonlyMap<string, unknown>, removed: Fertilization | null, added: Fertilization | null) =>
    kind.updatedHistory({ rows, farm, removed, added, reference });
  const farm = fertilizationFarm();
  const now = madrid('14-05-2026 18:00:00');
  const judge = (
    body: Record<string, unknown>,
    history: ReadonlyMap<string, unknown>,
    own = null as ReturnType<typeof kind.toRequest> | null,
    maxBackdateDays: number | null = 7,
  ) => {
    const request = kind.toRequest(body);
    const appliedAt = kind.appliedAt(request);
    // The window as the records core hands it: the kind's, from the settings; none for an amendment keeping its date.
    const window = maxBackdateDays === null ? null : kind.recordingWindow({ MAX_BACKDATE_DAYS: maxBackdateDays });
    return kind.judge({ request, appliedAt, now, window, farm, history, own, reference });
  };

  it('maps the wire body to its domain value and back', () => {
    const body = kind.wire.request.parse(manureBody());
    expect(kind.toWire(kind.toRequest(body))).toEqual(body);
    expect(kind.appliedAt(kind.toRequest(body)).toISO()).toBe('2026-05-14T00:00:00.000+02:00');
    expect(kind.listValue(kind.toRequest(body))).toBe('5');
  });

  it("takes RD 1051/2022's month to register, whatever the treatments' MAX_BACKDATE_DAYS the core hands it", () => {
    const codes = (dateStart: string, maxBackdateDays: number | null) =>
      judge(mineralBody({ dateStart }), new Map(), null, maxBackdateDays).violations.map((v) => v.code);
    expect(codes('14-04-2026', 7)).toEqual([]);
    expect(codes('13-04-2026', 7)).toEqual(['DATE_TOO_OLD']);
    expect(codes('13-04-2026', 365)).toEqual(['DATE_TOO_OLD']);
    expect(codes('14-04-2026', 0)).toEqual([]);
    // null: an amendment keeping its date, judged with no window (records core, amend-record.ts).
    expect(codes('13-04-2026', null)).toEqual([]);
  });

  it('keeps the 170 kg N/ha limit through the rows it asks the core to read and write, both ways in time', () => {
    const a = kind.toRequest(manureBody(20, { dateStart: '12-05-2026' })); // 100 kg N/ha
    expect(kind.historyKeys(farm, a)).toEqual(['g~manure-n~46-213-0-0-12-45-1']);
    expect(judge(manureBody(20, { dateStart: '12-05-2026' }), new Map()).violations).toEqual([]);
    let rows: Map<string, unknown> = updated(new Map(), null, a);
    // A record back-dated before A meets A's nitrogen: 70 more is the limit, 70.01 is over it.
    const earlier = (tonnes: number) => manureBody(tonnes, { dateStart: '08-05-2026' });
    expect(judge(earlier(14), rows).violations).toEqual([]);
    expect(judge(earlier(14.002), rows).violations.map((v) => v.code)).toEqual(['NITROGEN_LIMIT_EXCEEDED']);
    rows = new Map([...rows, ...updated(rows, null, kind.toRequest(earlier(14)))]);
    // A later one meets both; amending A within what it had is accepted, above it is not.
    expect(judge(manureBody(0.002), rows).violations.map((v) => v.code)).toEqual(['NITROGEN_LIMIT_EXCEEDED']);
    expect(judge(manureBody(20, { dateStart: '12-05-2026' }), rows, a).violations).toEqual([]);
    expect(judge(manureBody(20.002, { dateStart: '12-05-2026' }), rows, a).violations).toHaveLength(1);
    // Deleting A frees its 100 kg.
    rows = new Map([...rows, ...updated(rows, a, null)]);
    expect(judge(manureBody(20), rows).violations).toEqual([]);
  });

  it('answers its view and maps to Fertilizacion blocks keyed for the IdAjenaFerti the core allocates', () => {
    const request = kind.toRequest(mineralBody());
    const { violations, resolution } = judge(mineralBody(), new Map());
    expect(violations).toEqual([]);
    const record = kind.view({ id: 12, request, resolution, farm, exported: false, now });
    expect(record).toMatchObject({
      id: 'urn:ngsi-ld:AgriFertilize:12',
      nitrogen: { kgPerHa: 81, livestockManure: false },
    });
    expect(kind.upgrade(record, kind.format)).toBe(record);
    expect([kind.cue.section, kind.cue.idAjena]).toEqual(['Fertilizacion', 'IdAjenaFerti']);
    const mapped = kind.cue.map(record, farm);
    expect(mapped.ok && mapped.blocks.map((b) => b.key)).toEqual(['102~1001']);
  });

  it('refuses history rows that are not what it wrote', () => {
    expect(() =>
      judge(manureBody(), new Map([['g~manure-n~46-213-0-0-12-45-1', { campaigns: { '2026': -1 } }]])),
    ).toThrow();
  });
});
