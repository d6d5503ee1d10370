import { ANCHOR } from '../helpers/dataset';
import { nitrateVulnerableFarm } from '../helpers/export-stack';
import { manureBody, mineralBody } from '../helpers/fertilization-fixtures';
import { get, Keys, postJson, Reply } from '../helpers/http';
import { farmOverHttp, seedPhyto, testClient, uniqueRea } from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 33 item 6 over HTTP: the fertilizations' batch, which the records core gives every kind as it gave the
 * treatments theirs: each item judged as if alone and in order (a later manure counts the nitrogen of earlier ones
 * on its nitrate-vulnerable enclosure), answered item by item; an Idempotency-Key over the whole batch. Each concern
 * has its own farm, so counts are exact.
 */
const PATH = '/v1/entities/agrifertilizes';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');

const rea = { mixed: uniqueRea(), idem: uniqueRea(), limits: uniqueRea(), foreign: uniqueRea() };
const c = {
  mixed: testClient('ferti-batch-mixed', [rea.mixed]),
  idem: testClient('ferti-batch-idem', [rea.idem]),
  limits: testClient('ferti-batch-limits', [rea.limits]),
  owner: testClient('ferti-batch-owner', [rea.foreign]),
};
type HttpFarm = Awaited<ReturnType<typeof farmOverHttp>>;
const farms = {} as Record<keyof typeof rea, HttpFarm>;

const query = (f: HttpFarm) => new URLSearchParams({ agrifarmId: f.agrifarmId }).toString();
const batch = (keys: Keys, f: HttpFarm, items: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
  postJson(`${PATH}/batch?${query(f)}`, items, keys, headers);
const total = async (keys: Keys, f: HttpFarm) => (await get(`${PATH}?${query(f)}`, keys)).headers.get('x-total-count');

/** 20 t/ha of solid cattle manure on the farm's nitrate-vulnerable enclosure: 100 of its 170 kg N/ha a campaign. */
const manure = (f: HttpFarm, daysBack: number) => manureBody(20, { dateStart: day(daysBack), idcp: [f.vine[0]] });
const mineral = (f: HttpFarm, vine: number) => mineralBody({ dateStart: day(2), idcp: [f.vine[vine]] });

const codesOf = (item: any): string[] => item.body.errors?.map((e: { code: string }) => e.code) ?? [];

beforeAll(async () => {
  await seedPhyto({ farms: Object.values(rea).map((r) => nitrateVulnerableFarm(r)), clients: Object.values(c) });
  for (const k of Object.keys(rea) as (keyof typeof rea)[])
    farms[k] = await farmOverHttp(k === 'foreign' ? c.owner : c[k], rea[k]);
});

describe('POST /v1/entities/agrifertilizes/batch', () => {
  it('judges each item as if alone, in order: a later manure counts the earlier one, a refused item stops nothing', async () => {
    const f = farms.mixed;
    const items = [manure(f, 4), { ...manure(f, 4), dose: 'lots' }, manure(f, 3), mineral(f, 1)];
    const res = await batch(c.mixed, f, items);
    expect(res.status).toBe(200);
    expect(res.json.map((i: any) => [i.index, i.status, codesOf(i)])).toEqual([
      [0, 201, []],
      [1, 400, ['INVALID_VALUE']],
      [2, 422, ['NITROGEN_LIMIT_EXCEEDED']],
      [3, 201, []],
    ]);
    // A refused item's body is the problem a single registration would answer, paths as if sent alone.
    expect(res.json[1].body.errors[0].path).toBe('body.dose');
    checkProblemShape(res.json[2].body, 422);
    expect(res.json[2].body.errors[0].message).toContain('would total 200 kg N/ha');
    // A stored item carries its record and ETag as a single registration answers them.
    const stored = res.json.filter((i: any) => i.status === 201);
    for (const i of stored) {
      expect(i.etag).toBe('"1"');
      expect(i.body).toHaveLength(1);
      expect(i.body[0].id).toMatch(/^urn:ngsi-ld:AgriFertilize:[1-9]\d*$/);
    }
    const listed = await get(`${PATH}?${query(f)}`, c.mixed);
    expect(listed.json.map((r: any) => r.id).sort()).toEqual(stored.map((i: any) => i.body[0].id).sort());
  });

  it('an Idempotency-Key covers the batch: a retry stores nothing twice, another batch under it, or a single registration, is 422', async () => {
    const f = farms.idem;
    const items = [manure(f, 4), manure(f, 3), mineral(f, 2)];
    const headers = { 'Idempotency-Key': 'erp-ferti-batch-1' };
    const first = await batch(c.idem, f, items, headers);
    const retry = await batch(c.idem, f, items, headers);
    expect(first.json.map((i: any) => i.status)).toEqual([201, 422, 201]);
    expect([retry.status, retry.text]).toEqual([200, first.text]);
    expect(await total(c.idem, f)).toBe('2');

    const other = await batch(c.idem, f, items.slice(0, 1), headers);
    expect([other.status, other.json.errors.map((e: { code: string }) => e.code)]).toEqual([
      422,
      ['IDEMPOTENCY_KEY_REUSED'],
    ]);
    // A key belongs to one client and one operation (issue 36): a single registration under the batch's key is refused
    // as a reuse, and stores nothing, rather than taken as a request of its own.
    const single = await postJson(`${PATH}?${query(f)}`, mineral(f, 3), c.idem, headers);
    expect([single.status, single.json.errors.map((e: { code: string }) => e.code)]).toEqual([
      422,
      ['IDEMPOTENCY_KEY_REUSED'],
    ]);
    expect(await total(c.idem, f)).toBe('2');
  });

  it('refuses an empty batch, more than 100 items, and a farm the caller may not see, as a whole', async () => {
    const f = farms.limits;
    const tooMany = Array.from({ length: 101 }, () => mineral(f, 1));
    const codes = (r: Reply) => [r.status, r.json.errors.map((e: { code: string }) => e.code)];
    expect(codes(await batch(c.limits, f, []))).toEqual([400, ['INVALID_VALUE']]);
    expect(codes(await batch(c.limits, f, tooMany))).toEqual([400, ['INVALID_VALUE']]);
    expect(codes(await batch(c.limits, f, { not: 'an array' }))).toEqual([400, ['INVALID_VALUE']]);
    const foreign = await batch(c.limits, farms.foreign, [mineral(farms.foreign, 1)]);
    expect(codes(foreign)).toEqual([404, ['AGRIFARM_NOT_FOUND']]);
    expect(await total(c.owner, farms.foreign)).toBe('0');
    expect(await total(c.limits, f)).toBe('0');
  });
});
