import { postJson, Reply } from '../helpers/http';
import {
  body,
  daysAgo,
  farmOverHttp,
  list,
  P,
  phytoFarm,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';
import type { Keys } from '../helpers/http';

/**
 * Issue 26 item 5, end to end over HTTP: a batch of registrations, each judged as if alone and in order, answered
 * item by item; an Idempotency-Key over the whole batch. Each concern has its own farm, so counts are exact.
 */
const rea = { mixed: uniqueRea(), idem: uniqueRea(), limits: uniqueRea(), foreign: uniqueRea() };
const c = {
  mixed: testClient('batch-e2e-mixed', [rea.mixed]),
  idem: testClient('batch-e2e-idem', [rea.idem]),
  limits: testClient('batch-e2e-limits', [rea.limits]),
  owner: testClient('batch-e2e-owner', [rea.foreign]),
};
const farms: Record<keyof typeof rea, Awaited<ReturnType<typeof farmOverHttp>>> = {} as never;

const batch = (keys: Keys, agrifarmId: string, items: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
  postJson(`/v1/entities/agriphytosanitarys/batch?agrifarmId=${encodeURIComponent(agrifarmId)}`, items, keys, headers);

/** At most two per campaign on an enclosure, no interval: the third one on the same vine is refused. */
const twice = (idcp: string, hhmm: string) =>
  body({
    idcp: [idcp],
    dateApplication: daysAgo(1, hhmm),
    subtype: { type: 'TypePhytosanitary', name: 'COBRE DOS', code: P.twice },
  });

const codesOf = (item: any): string[] => item.body.errors?.map((e: { code: string }) => e.code) ?? [];

beforeAll(async () => {
  await seedPhyto({ farms: Object.values(rea).map((r) => phytoFarm(r)), clients: Object.values(c) });
  for (const k of Object.keys(rea) as (keyof typeof rea)[])
    farms[k] = await farmOverHttp(k === 'foreign' ? c.owner : c[k], rea[k]);
});

describe('POST /v1/entities/agriphytosanitarys/batch', () => {
  it('judges each item as if alone, in order: later items count earlier ones, a refused item stops nothing', async () => {
    const f = farms.mixed;
    const items = [
      twice(f.vine[0], '08:00'),
      { ...twice(f.vine[0], '09:00'), dose: 'lots' },
      twice(f.vine[0], '10:00'),
      twice(f.vine[0], '11:00'),
      twice(f.vine[1], '12:00'),
    ];
    const res = await batch(c.mixed, f.agrifarmId, items);
    expect(res.status).toBe(200);
    expect(res.json.map((i: any) => [i.index, i.status, codesOf(i)])).toEqual([
      [0, 201, []],
      [1, 400, ['INVALID_VALUE']],
      [2, 201, []],
      [3, 422, ['MAX_APPLICATIONS']],
      [4, 201, []],
    ]);
    // A refused item's body is the problem a single registration would answer, paths as if sent alone.
    expect(res.json[1].body.errors[0].path).toBe('body.dose');
    checkProblemShape(res.json[3].body, 422);
    // A stored item carries its record and ETag as a single registration answers them.
    const stored = res.json.filter((i: any) => i.status === 201);
    for (const i of stored) {
      expect(i.etag).toBe('"1"');
      expect(i.body).toHaveLength(1);
    }
    const listed = await list(c.mixed, f.agrifarmId);
    expect(listed.json.map((r: any) => r.id).sort()).toEqual(stored.map((i: any) => i.body[0].id).sort());
  });

  it('an Idempotency-Key covers the batch: a retry stores nothing twice, another batch under it, or a single registration, is 422', async () => {
    const f = farms.idem;
    const items = [twice(f.vine[0], '08:00'), { ...twice(f.vine[1], '09:00'), dose: 9 }, twice(f.vine[2], '10:00')];
    const headers = { 'Idempotency-Key': 'erp-batch-1' };
    const first = await batch(c.idem, f.agrifarmId, items, headers);
    const retry = await batch(c.idem, f.agrifarmId, items, headers);
    expect(first.json.map((i: any) => i.status)).toEqual([201, 422, 201]);
    expect([retry.status, retry.text]).toEqual([200, first.text]);
    expect((await list(c.idem, f.agrifarmId)).headers.get('x-total-count')).toBe('2');

    const other = await batch(c.idem, f.agrifarmId, items.slice(0, 1), headers);
    expect([other.status, other.json.errors.map((e: { code: string }) => e.code)]).toEqual([
      422,
      ['IDEMPOTENCY_KEY_REUSED'],
    ]);
    // A key belongs to one client and one operation (issue 36): a single registration under the batch's key is refused
    // as a reuse, and stores nothing, rather than taken as a request of its own.
    const single = await postJson(
      `/v1/entities/agriphytosanitarys/?agrifarmId=${encodeURIComponent(f.agrifarmId)}`,
      twice(f.vine[3], '11:00'),
      c.idem,
      headers,
    );
    expect([single.status, single.json.errors.map((e: { code: string }) => e.code)]).toEqual([
      422,
      ['IDEMPOTENCY_KEY_REUSED'],
    ]);
    expect((await list(c.idem, f.agrifarmId)).headers.get('x-total-count')).toBe('2');
  });

  it('refuses an empty batch, more than 100 items, and a farm the caller may not see, as a whole', async () => {
    const f = farms.limits;
    const tooMany = Array.from({ length: 101 }, (_, i) => twice(f.vine[0], `0${i % 10}:00`));
    const codes = (r: Reply) => [r.status, r.json.errors.map((e: { code: string; path: string }) => e.code)];
    expect(codes(await batch(c.limits, f.agrifarmId, []))).toEqual([400, ['INVALID_VALUE']]);
    expect(codes(await batch(c.limits, f.agrifarmId, tooMany))).toEqual([400, ['INVALID_VALUE']]);
    expect(codes(await batch(c.limits, f.agrifarmId, { not: 'an array' }))).toEqual([400, ['INVALID_VALUE']]);
    const foreign = await batch(c.limits, farms.foreign.agrifarmId, [twice(farms.foreign.vine[0], '08:00')]);
    expect(codes(foreign)).toEqual([404, ['AGRIFARM_NOT_FOUND']]);
    expect((await list(c.owner, farms.foreign.agrifarmId)).headers.get('x-total-count')).toBe('0');
  });
});
