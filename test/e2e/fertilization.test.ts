import { ANCHOR } from '../helpers/dataset';
import { nitrateVulnerableFarm } from '../helpers/export-stack';
import { manureBody, mineralBody, slurryBody } from '../helpers/fertilization-fixtures';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import { farmOverHttp, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';
import { holdingEntities, testTables } from '../helpers/storage';
import { inProcessServices } from '../helpers/phyto-stack';
import { rebuildHistories } from '../../shared/app/rebuild-histories';
import { fertilizationEntry } from '../../shared/fertilization/kind-entry';

/**
 * Issue 25 over HTTP through the local runner: the three fertilizations of its "Done when" (a mineral fertilizer, a
 * slurry spread with an accepted practice, livestock manure on a nitrate-vulnerable enclosure) registered, listed,
 * read, amended, deleted and their history; the 170 kg N/ha limit at exactly 170 and at 170.01, with the later record
 * coming first and last; what MAT_FERTI asks of a material; bad bodies; Idempotency-Key; another client's records.
 * The gateway reads its own clock, so the days are counted back from the tests' anchor (the test stack allows 30 days
 * of back-dating). Each concern has its own farm, so campaign totals and list counts are exact.
 */
const PATH = '/v1/entities/agrifertilizes/';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = {
  records: uniqueRea(),
  forward: uniqueRea(),
  backward: uniqueRea(),
  refused: uniqueRea(),
  bounds: uniqueRea(),
  stranger: uniqueRea(),
};
const owner = testClient('ferti-owner', [rea.records, rea.forward, rea.backward, rea.refused, rea.bounds]);
const stranger = testClient('ferti-stranger', [rea.stranger]);
const keys: Keys = { sidKey: owner.sidKey, apiKey: owner.apiKey };
const strangerKeys: Keys = { sidKey: stranger.sidKey, apiKey: stranger.apiKey };
type HttpFarm = Awaited<ReturnType<typeof farmOverHttp>>;
const farms = {} as Record<keyof typeof rea, HttpFarm>;

const query = (agrifarmId: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ agrifarmId, ...extra }).toString();
const register = (f: HttpFarm, b: unknown, headers: Record<string, string> = {}, k = keys) =>
  postJson(`${PATH}?${query(f.agrifarmId)}`, b, k, headers);
const list = (f: HttpFarm, extra: Record<string, string> = {}, k = keys) =>
  get(`${PATH}?${query(f.agrifarmId, extra)}`, k);
const recordPath = (f: HttpFarm, id: string, suffix = '') =>
  `${PATH}${encodeURIComponent(id)}${suffix}?${query(f.agrifarmId)}`;
const read = (f: HttpFarm, id: string, k = keys) => get(recordPath(f, id), k);
const history = (f: HttpFarm, id: string) => get(recordPath(f, id, '/history'), keys);
const remove = (f: HttpFarm, id: string, headers: Record<string, string> = {}) =>
  call('DELETE', recordPath(f, id), { keys, headers });
const patch = (f: HttpFarm, id: string, changes: unknown, headers: Record<string, string> = {}) =>
  call('PATCH', recordPath(f, id), {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(changes),
  });

function expectProblem(res: Reply, status: number, errors: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)]).toEqual([
    status,
    errors,
  ]);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  checkProblemShape(res.json, status);
}

function created(res: Reply): { id: string; etag: string; record: any } {
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { id: res.json[0].id, etag: res.headers.get('etag') ?? '', record: res.json[0] };
}

const count = async (f: HttpFarm): Promise<number> => Number((await list(f)).headers.get('x-total-count'));

beforeAll(async () => {
  await seedPhyto({
    farms: Object.values(rea).map((r) => nitrateVulnerableFarm(r)),
    clients: [owner, stranger],
  });
  for (const [name, code] of Object.entries(rea) as [keyof typeof rea, string][])
    farms[name] = await farmOverHttp(name === 'stranger' ? strangerKeys : keys, code);
});

describe('a mineral fertilizer', () => {
  it('is registered (201, ETag, kg N/ha), listed, read, amended with If-Match, its history kept, and deleted', async () => {
    const f = farms.records;
    const sent = mineralBody({ dateStart: day(3), idcp: [f.vine[2]] });
    const { id, etag, record } = created(await register(f, sent));
    expect(id).toMatch(/^urn:ngsi-ld:AgriFertilize:[1-9]\d*$/);
    expect(etag).toBe('"1"');
    // 300 kg/ha of a 27 % N fertilizer.
    expect(record).toMatchObject({
      type: 'AgriFertilize',
      dateStart: day(3),
      dateEnd: day(3),
      idcp: [f.vine[2]],
      material: { id: '14', nutrients: sent.material && (sent.material as any).nutrients },
      dose: 300,
      nitrogen: { kgPerHa: 81, livestockManure: false },
      exported: '0',
      dateModified: '',
    });

    const listed = await list(f, { material: '14' });
    expect([listed.status, listed.headers.get('x-total-count'), listed.json.map((r: any) => r.id)]).toEqual([
      200,
      '1',
      [id],
    ]);
    expect((await list(f, { material: '5' })).json).toEqual([]);
    const one = await read(f, id);
    expect([one.status, one.headers.get('etag'), one.json]).toEqual([200, '"1"', [record]]);

    const stale = await patch(f, id, { dose: 250 }, { 'If-Match': '"7"' });
    expectProblem(stale, 412, ['PRECONDITION_FAILED header.If-Match']);
    const amended = await patch(f, id, { dose: 250, detail: 'segunda pasada' }, { 'If-Match': etag });
    expect([amended.status, amended.headers.get('etag')]).toEqual([200, '"2"']);
    expect(amended.json[0]).toMatchObject({ dose: 250, detail: 'segunda pasada', nitrogen: { kgPerHa: 67.5 } });
    expect(amended.json[0].dateModified).not.toBe('');

    const versions = await history(f, id);
    expect(versions.status).toBe(200);
    expect(versions.json.map((v: any) => [v.version, v.kind])).toEqual([
      [1, 'created'],
      [2, 'amended'],
    ]);
    expect(versions.json[1].changes).toEqual(
      expect.arrayContaining([
        { field: 'dose', old: 300, new: 250 },
        { field: 'detail', old: null, new: 'segunda pasada' },
      ]),
    );

    const gone = await remove(f, id);
    expect([gone.status, gone.text]).toEqual([204, '']);
    expectProblem(await read(f, id), 404, ['RECORD_NOT_FOUND path.id']);
    expect(await count(f)).toBe(0);
    expect((await history(f, id)).json.map((v: any) => v.kind)).toEqual(['created', 'amended', 'deleted']);
  });
});

describe('a slurry', () => {
  const broadcast = { type: 'TypeFertilizationMethod', id: '1', name: 'Esparcido general' };

  it('spread broadcast and buried within 4 hours (good practice 15) is registered: 157.5 kg N/ha through its density', async () => {
    const f = farms.records;
    const { id, record } = created(await register(f, slurryBody({ dateStart: day(2), idcp: [f.vine[3]] })));
    expect(record).toMatchObject({
      material: { id: '3', density: 1.05, supplier: { rega: 'ES460130000123' } },
      method: { id: '2' },
      goodPractices: [{ type: 'TypeGoodPractice', id: '15', name: '' }],
      nitrogen: { kgPerHa: 157.5, livestockManure: true },
    });
    // Bands with hoses instead: still accepted.
    const amended = await patch(f, id, { method: broadcast, goodPractices: [{ type: 'TypeGoodPractice', id: '1' }] });
    expect([amended.status, amended.json[0].method.id, amended.json[0].goodPractices[0].id]).toEqual([200, '1', '1']);
    // Taking the practice away is refused, and changes nothing.
    expectProblem(await patch(f, id, { goodPractices: [] }), 422, ['SLURRY_METHOD_NOT_ALLOWED body.method.id']);
    expect((await read(f, id)).json[0].goodPractices).toEqual([{ type: 'TypeGoodPractice', id: '1', name: '' }]);
  });

  it('spread broadcast with no accepted practice is 422 naming RD 1051/2022, and stores nothing', async () => {
    const f = farms.refused;
    const res = await register(
      f,
      slurryBody({ dateStart: day(2), idcp: [f.vine[3]], method: broadcast, goodPractices: [] }),
    );
    expectProblem(res, 422, ['SLURRY_METHOD_NOT_ALLOWED body.method.id']);
    expect(res.json.errors[0].message).toContain('RD 1051/2022');
    expect(await count(f)).toBe(0);
  });
});

describe("RD 1051/2022's month to register a fertilization (art. 4.1)", () => {
  it("more than a month back is 422 DATE_TOO_OLD naming the decree's month, not the treatments' days", async () => {
    const f = farms.refused;
    const dateStart = ANCHOR.minus({ months: 1, days: 1 }).toFormat('dd-MM-yyyy');
    const res = await register(f, mineralBody({ dateStart, idcp: [f.vine[3]] }));
    expect(res.status).toBe(422);
    // Early in January a month back is also last year's campaign (OUTSIDE_CAMPAIGN beside it).
    expect(res.json.errors.find((e: { code: string }) => e.code === 'DATE_TOO_OLD')).toMatchObject({
      path: 'body.dateStart',
      message: 'applications may be registered at most one month (RD 1051/2022, art. 4.1) after they took place',
    });
    expect(await count(f)).toBe(0);
  });
});

describe('livestock manure on the nitrate-vulnerable enclosure: 170 kg N/ha a campaign', () => {
  // Solid cattle manure at 0.5 % N: 20 t/ha is 100 kg N/ha, 14 t/ha 70, 14.002 t/ha 70.01.
  const manure = (f: HttpFarm, daysBack: number, tonnes: number) =>
    manureBody(tonnes, { dateStart: day(daysBack), idcp: [f.vine[0]] });

  function expectOverLimit(res: Reply, total: string): void {
    expectProblem(res, 422, ['NITROGEN_LIMIT_EXCEEDED body.idcp[0]']);
    expect(res.json.errors[0].message).toContain(`would total ${total} kg N/ha`);
    expect(res.json.errors[0].message).toContain('the limit is 170 kg N/ha');
  }

  it('a later record: 170 holds, 170.01 fails naming the total and the limit; an amendment does not count itself', async () => {
    const f = farms.forward;
    const first = created(await register(f, manure(f, 10, 20)));
    expect(first.record.nitrogen).toEqual({ kgPerHa: 100, livestockManure: true });
    expectOverLimit(await register(f, manure(f, 5, 14.002)), '170.01');
    const second = created(await register(f, manure(f, 5, 14)));
    expect(second.record.nitrogen.kgPerHa).toBe(70);
    // The enclosure is at exactly 170: any more is refused, the same dose again is not a change.
    expectOverLimit(await patch(f, second.id, { dose: 14.002 }), '170.01');
    expect((await patch(f, second.id, { dose: 14, detail: 'sin cambio de dosis' })).status).toBe(200);
    // Manure on an enclosure outside the zone is not limited.
    expect((await register(f, manureBody(40, { dateStart: day(5), idcp: [f.vine[1]] }))).status).toBe(201);
    // A deletion gives its nitrogen back.
    expect((await remove(f, first.id)).status).toBe(204);
    expect((await register(f, manure(f, 4, 20))).status).toBe(201);
    expect((await list(f, { idcp: f.vine[0] })).json.map((r: any) => r.nitrogen.kgPerHa)).toEqual([100, 70]);
  });

  it('a back-dated record that would push a later one over is refused: 170.01 fails, 170 holds', async () => {
    const f = farms.backward;
    created(await register(f, manure(f, 1, 20)));
    expectOverLimit(await register(f, manure(f, 12, 14.002)), '170.01');
    created(await register(f, manure(f, 12, 14)));
    expectOverLimit(await register(f, manure(f, 20, 0.002)), '170.01');
    expect(await count(f)).toBe(2);
  });
});

describe('bounds on every quantity, and a total that cannot be read (issue 35)', () => {
  const manure = (f: HttpFarm, tonnes: number) => manureBody(tonnes, { dateStart: day(3), idcp: [f.vine[0]] });
  const manureRows = async () =>
    (await holdingEntities(testTables(), fertilizationEntry.table, { rea: rea.bounds })).filter((r) =>
      String(r.rowKey).startsWith('g~manure-n~'),
    );

  it('refuses a dose of 1e13 with the limit stated, stores nothing of it, and the enclosure keeps working', async () => {
    const f = farms.bounds;
    created(await register(f, manure(f, 20)));
    const res = await register(f, manure(f, 1e13));
    expectProblem(res, 422, ['QUANTITY_OUT_OF_BOUNDS body.dose']);
    expect(res.json.errors[0].message).toContain('is more than 99999.999, the most SIEX');
    // The largest dose the CUE holds is judged as any other: here, past the enclosure's 170 kg N/ha.
    expectProblem(await register(f, manure(f, 99999.999)), 422, ['NITROGEN_LIMIT_EXCEEDED body.idcp[0]']);
    created(await register(f, manure(f, 14)));
    expect(await count(f)).toBe(2);
  });

  it('answers 503 STORED_DATA_UNREADABLE for a total past 2^53, and registers again once rebuilt from the records', async () => {
    const f = farms.bounds;
    const [row] = await manureRows();
    const year = Object.keys(JSON.parse(String(row.days)).campaigns)[0];
    const table = await testTables().farmTable(fertilizationEntry.table, { rea: rea.bounds });
    await table.updateEntity(
      { partitionKey: String(row.partitionKey), rowKey: String(row.rowKey), days: `{"campaigns":{"${year}":1e16}}` },
      'Replace',
    );
    const unreadable = await register(f, manure(f, 1));
    expectProblem(unreadable, 503, ['STORED_DATA_UNREADABLE ']);
    expect(unreadable.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await count(f)).toBe(2);
    // The operators' remedy (npm run admin -- rebuild-history REA): 100 + 70 kg N/ha, counted again from the records.
    const rebuilt = await rebuildHistories(inProcessServices(0, 'ferti-rebuild'), rea.bounds);
    expect(rebuilt.find((r) => r.kind === 'fertilizations')?.rebuilt).toEqual({
      records: 2,
      skipped: 0,
      written: 1,
      deleted: 0,
    });
    expect((await manureRows()).map((r) => JSON.parse(String(r.days)))).toEqual([{ campaigns: { [year]: 170000 } }]);
    expectProblem(await register(f, manure(f, 0.002)), 422, ['NITROGEN_LIMIT_EXCEEDED body.idcp[0]']);
  });
});

describe('what MAT_FERTI asks of the material', () => {
  it('a material without the data its "Campos a registrar" asks for is 422 naming each field, and stores nothing', async () => {
    const f = farms.refused;
    const { supplier: _s, treatment: _t, ...bare } = manureBody().material as Record<string, unknown>;
    const res = await register(f, manureBody(20, { dateStart: day(1), idcp: [f.vine[1]], material: bare }));
    expectProblem(res, 422, [
      'MATERIAL_DATA_MISSING body.material.supplier',
      'MATERIAL_DATA_MISSING body.material.treatment',
    ]);
    // A mineral fertilizer records the nutrients its label declares: none given is refused.
    const mineral = mineralBody({ dateStart: day(1), idcp: [f.vine[1]] });
    const noNutrients = { ...mineral, material: { ...(mineral.material as object), nutrients: [] } };
    const res2 = await register(f, noNutrients);
    expectProblem(res2, 422, ['MATERIAL_DATA_MISSING body.material.nutrients']);
    expect(res2.json.errors[0].message).toContain('N total');
    // Its supplier by a manure manager's NIF, one of the identifiers MAT_FERTI takes for this material: accepted.
    const byNif = manureBody(20, { dateStart: day(1), idcp: [f.vine[1]] });
    (byNif.material as any).supplier = { nif: 'B46000001' };
    expect((await register(f, byNif)).status).toBe(201);
    expect(await count(f)).toBe(1);
  });
});

describe('bad bodies', () => {
  it('give 400 with every violation at once and store nothing', async () => {
    const f = farms.refused;
    const before = await count(f);
    const { kind: _k, ...noKind } = mineralBody({
      dateStart: '31-02-2026',
      idcp: [f.vine[1]],
      dose: -3,
      colour: 'red',
    });
    const res = await register(f, { ...noKind, material: { type: 'TypeFertilizerMaterial', id: 'catorce' } });
    expect(res.status).toBe(400);
    checkProblemShape(res.json, 400);
    expect(res.json.errors.map((e: any) => `${e.code} ${e.path}`).sort()).toEqual(
      [
        'INVALID_VALUE body.dateStart',
        'INVALID_VALUE body.dose',
        'INVALID_VALUE body.material.id',
        'REQUIRED body.kind',
        'UNKNOWN_FIELD body.colour',
      ].sort(),
    );
    const unknownIdcp = await register(f, mineralBody({ dateStart: day(1), idcp: ['999999'] }));
    expectProblem(unknownIdcp, 404, ['IDCP_NOT_FOUND body.idcp[0]']);
    expect(await count(f)).toBe(before);
  });
});

describe('Idempotency-Key', () => {
  it('a retry with the same key and body gets the first answer and stores nothing; another body under it is 422', async () => {
    const f = farms.records;
    const before = await count(f);
    const b = mineralBody({ dateStart: day(4), idcp: [f.olive] });
    const key = { 'Idempotency-Key': `ferti-${uniqueRea()}` };
    const first = await register(f, b, key);
    const again = await register(f, b, key);
    expect([first.status, again.status, again.text, again.headers.get('etag')]).toEqual([
      201,
      201,
      first.text,
      first.headers.get('etag'),
    ]);
    expectProblem(await register(f, { ...b, dose: 301 }, key), 422, ['IDEMPOTENCY_KEY_REUSED header.Idempotency-Key']);
    expect(await count(f)).toBe(before + 1);
  });
});

describe("another client's records", () => {
  it('are 404 on every route, as records that do not exist', async () => {
    const f = farms.records;
    const { id } = created(await register(f, mineralBody({ dateStart: day(1), idcp: [f.vine[1]] })));
    expect((await read(f, id, strangerKeys)).status).toBe(404);
    expect((await list(f, {}, strangerKeys)).status).toBe(404);
    const own = farms.stranger;
    expectProblem(await read(own, id, strangerKeys), 404, ['RECORD_NOT_FOUND path.id']);
  });
});
