import { CAMPAIGN, dataset, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { get, Reply, seed } from '../helpers/http';
import { checkFarmShape, checkProblemShape } from '../helpers/spec-shapes';

/**
 * GET /v1/siex/farms?rea=&year= over HTTP through the local runner. Client A sees two campaigns of farm A; client B
 * sees farm B. Each test file has its own clients and farms (random suffixes), and stays far below 100 requests per
 * client per minute.
 */
const reaA = uniqueRea();
const reaB = uniqueRea();
const unknownRea = uniqueRea();
const clientA = testClient('lookup-a', [reaA]);
const clientB = testClient('lookup-b', [reaB]);
const farmA = testFarm(reaA, { name: 'Finca El Olivar', codigoRea: 'ES460000000001' });

const lookup = (rea: string, year: number | string, keys = clientA) =>
  get(`/v1/siex/farms?rea=${rea}&year=${year}`, keys);

function expectProblem(reply: Reply, status: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  checkProblemShape(reply.json, status);
}

beforeAll(async () => {
  await seed(
    dataset({
      clients: [clientA, clientB],
      farms: [farmA, testFarm(reaA, { year: CAMPAIGN - 1, name: 'Campaña anterior' }), testFarm(reaB)],
    }),
  );
});

describe('farm lookup', () => {
  it('answers 200 with a one-item array of the farm, in the spec shape field by field and type by type', async () => {
    const reply = await lookup(reaA, CAMPAIGN);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Array.isArray(reply.json)).toBe(true);
    expect(reply.json).toHaveLength(1);
    const [farm] = reply.json;
    checkFarmShape(farm);
    expect(farm).toMatchObject({
      name: 'Finca El Olivar',
      description: farmA.description,
      year: CAMPAIGN,
      address: { addressLocality: 'Requena', addressCountry: 'ES' },
      owned: { name: 'Luis', surname: 'García Sanz', email: 'luis@example.org', nif: '71234567W' },
      regionalAttributes: [
        { rea: reaA, address: { province: 'Valencia', community: { name: 'Comunitat Valenciana' } } },
      ],
    });
    expect(farm.agriCrop.map((c: any) => c.crop)).toEqual([
      {
        type: 'TypeCropVariety',
        typecrop: { type: 'TypeCrop', id: '102', name: 'VIÑA' },
        code: 1001,
        name: 'TEMPRANILLO',
      },
      {
        type: 'TypeCropVariety',
        typecrop: { type: 'TypeCrop', id: '101', name: 'OLIVO' },
        code: 2001,
        name: 'BLANQUETA',
      },
    ]);
    expect(farm.agriCrop[0].agriParcel.map((p: any) => p.name)).toEqual(['La Hoya', 'El Pinar']);
    expect(farm.agriCrop[0].agriParcel[0].sigpac[0]).toEqual({
      idcp: expect.any(Number),
      prov: '46',
      town: '213',
      aggr: '0',
      zone: '0',
      pol: '12',
      parc: '45',
      enc: '1',
      dimension: '2.35',
    });
    // every idcp distinct; the same enclosure under the olive crop has its own
    const idcps = farm.agriCrop.flatMap((c: any) => c.agriParcel.flatMap((p: any) => p.sigpac.map((s: any) => s.idcp)));
    expect(new Set(idcps).size).toBe(4);
    // the back office's codigoRea is not part of the response
    expect(reply.text).not.toContain('ES460000000001');
  });

  it('answers each campaign of a REA as its own farm', async () => {
    const [current, previous] = await Promise.all([lookup(reaA, CAMPAIGN), lookup(reaA, CAMPAIGN - 1)]);
    expect(previous.status).toBe(200);
    checkFarmShape(previous.json[0]);
    expect(previous.json[0]).toMatchObject({ year: CAMPAIGN - 1, name: 'Campaña anterior' });
    expect(previous.json[0].id).not.toBe(current.json[0].id);
  });

  it('answers the same farm id and idcp values on every call', async () => {
    const a = await lookup(reaA, CAMPAIGN);
    const b = await lookup(reaA, CAMPAIGN);
    expect(b.json).toEqual(a.json);
  });

  it('matches routes case-insensitively and with a trailing slash, passing the query through', async () => {
    const reference = await lookup(reaA, CAMPAIGN);
    for (const path of [
      `/V1/SIEX/FARMS?rea=${reaA}&year=${CAMPAIGN}`,
      `/v1/siex/farms/?rea=${reaA}&year=${CAMPAIGN}`,
      `/v1/Siex/Farms/?year=${CAMPAIGN}&rea=${reaA}`,
    ]) {
      const reply = await get(path, clientA);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual(reference.json);
    }
  });

  it('404s an unknown REA and an unknown campaign year, as problem details', async () => {
    for (const reply of [await lookup(unknownRea, CAMPAIGN), await lookup(reaA, CAMPAIGN + 5)]) {
      expectProblem(reply, 404);
      expect(reply.json.errors.map((e: any) => e.code)).toEqual(['FARM_NOT_FOUND']);
    }
  });

  it('404s a farm of another client exactly as if it did not exist', async () => {
    const foreign = await lookup(reaB, CAMPAIGN);
    const unknown = await lookup(unknownRea, CAMPAIGN);
    expectProblem(foreign, 404);
    // same body once the REA asked for is swapped: nothing tells that farm B exists
    expect(foreign.text).toBe(unknown.text.split(unknownRea).join(reaB));
    expect(foreign.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
    // and client B does see it
    expect((await lookup(reaB, CAMPAIGN, clientB)).status).toBe(200);
  });

  it('400s missing parameters, listing every one', async () => {
    const none = await get('/v1/siex/farms', clientA);
    expectProblem(none, 400);
    expect(none.json.errors.map((e: any) => [e.code, e.path])).toEqual([
      ['REQUIRED', 'query.rea'],
      ['REQUIRED', 'query.year'],
    ]);
    const noYear = await get(`/v1/siex/farms?rea=${reaA}`, clientA);
    expectProblem(noYear, 400);
    expect(noYear.json.errors.map((e: any) => [e.code, e.path])).toEqual([['REQUIRED', 'query.year']]);
    const noRea = await get(`/v1/siex/farms?year=${CAMPAIGN}`, clientA);
    expect(noRea.json.errors.map((e: any) => [e.code, e.path])).toEqual([['REQUIRED', 'query.rea']]);
  });

  it.each([
    ['a year that is not a number', () => `rea=${reaA}&year=abcd`, ['query.year']],
    ['a two-digit year', () => `rea=${reaA}&year=26`, ['query.year']],
    ['a decimal year', () => `rea=${reaA}&year=${CAMPAIGN}.0`, ['query.year']],
    ['a REA with a slash', () => `rea=46%2F0001&year=${CAMPAIGN}`, ['query.rea']],
    ['a REA with spaces', () => `rea=46%200001&year=${CAMPAIGN}`, ['query.rea']],
    ['an empty REA and year', () => 'rea=&year=', ['query.rea', 'query.year']],
  ])('400s %s', async (_, query, paths) => {
    const reply = await get(`/v1/siex/farms?${query()}`, clientA);
    expectProblem(reply, 400);
    expect(reply.json.errors.map((e: any) => [e.code, e.path])).toEqual(paths.map((p) => ['INVALID_VALUE', p]));
  });
});
