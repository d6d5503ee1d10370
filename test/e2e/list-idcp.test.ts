import { CAMPAIGN, dataset, enclosure, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { call, get, listIdcpBody, postJson, Reply, seed } from '../helpers/http';
import { checkIdcpSetShape, checkProblemShape } from '../helpers/spec-shapes';

/** POST /v1/siex/listidcp/?agrifarmId= over HTTP through the local runner. */
const reaA = uniqueRea();
const reaB = uniqueRea();
const clientA = testClient('idcp-a', [reaA]);
const clientB = testClient('idcp-b', [reaB]);
const VINE = { typecropId: '102', code: 1001 };
const OLIVE = { typecropId: '101', typecropName: 'OLIVO', code: 2001, name: 'BLANQUETA' };
const s = (pol: number, parc: number, enc: number, prov = '46') => {
  const { dimension: _, ...ref } = enclosure(pol, parc, enc, prov);
  return ref;
};

let farmA: any; // the farm lookup response item
let farmIdA: string;
let farmIdB: string;

/** idcp of an enclosure as the farm lookup shows it, for crop index 0 (vine) or 1 (olive). */
function lookupIdcp(crop: number, pol: number, parc: number, enc: number): number {
  for (const p of farmA.agriCrop[crop].agriParcel) {
    for (const e of p.sigpac)
      if (e.pol === String(pol) && e.parc === String(parc) && e.enc === String(enc)) return e.idcp;
  }
  throw new Error('enclosure not in the farm lookup');
}

const listIdcp = (body: unknown, agrifarmId = farmIdA, keys = clientA, path = '/v1/siex/listidcp/') =>
  postJson(`${path}?agrifarmId=${encodeURIComponent(agrifarmId)}`, body, keys);

function expectProblem(reply: Reply, status: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  checkProblemShape(reply.json, status);
}

const codesAndPaths = (reply: Reply) => reply.json.errors.map((e: any) => [e.code, e.path]);

beforeAll(async () => {
  const farm = testFarm(reaA);
  farm.crops[0].parcels.push({
    name: 'Bancal',
    sigpac: [enclosure(30, 5, 1, '46', '0.50'), enclosure(30, 5, 2, '46', '0.75')],
  });
  await seed(dataset({ clients: [clientA, clientB], farms: [farm, testFarm(reaB)] }));
  const a = await get(`/v1/siex/farms?rea=${reaA}&year=${CAMPAIGN}`, clientA);
  const b = await get(`/v1/siex/farms?rea=${reaB}&year=${CAMPAIGN}`, clientB);
  expect([a.status, b.status]).toEqual([200, 200]);
  farmA = a.json[0];
  farmIdA = farmA.id;
  farmIdB = b.json[0].id;
});

describe('listidcp', () => {
  it("answers 200 with the spec shape and one idcp per enclosure, equal to the farm lookup's sigpac[].idcp", async () => {
    const reply = await listIdcp(listIdcpBody(VINE, [[s(12, 45, 1), s(14, 7, 1), s(30, 5, 2)]]));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    checkIdcpSetShape(reply.json);
    expect(reply.json).toEqual({
      agrifarmId: farmIdA,
      crop: { typecrop: { id: '102', name: 'VIÑA' }, code: 1001, name: 'TEMPRANILLO' },
      idcp: [
        { idcp: lookupIdcp(0, 12, 45, 1), ...s(12, 45, 1) },
        { idcp: lookupIdcp(0, 14, 7, 1), ...s(14, 7, 1) },
        { idcp: lookupIdcp(0, 30, 5, 2), ...s(30, 5, 2) },
      ],
    });
  });

  it('serves the path with and without the trailing slash, in any case, with the same answer', async () => {
    const body = listIdcpBody(VINE, [[s(12, 45, 2)]]);
    const replies = await Promise.all(
      ['/v1/siex/listidcp/', '/v1/siex/listidcp', '/V1/SIEX/LISTIDCP/', '/v1/Siex/ListIdcp'].map((path) =>
        listIdcp(body, farmIdA, clientA, path),
      ),
    );
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual(replies[0].json);
    }
    expect(replies[0].json.idcp[0].idcp).toBe(lookupIdcp(0, 12, 45, 2));
  });

  it('answers the same idcp on every call, whatever the grouping of the enclosures', async () => {
    const all = [s(12, 45, 1), s(12, 45, 2), s(14, 7, 1), s(30, 5, 1), s(30, 5, 2)];
    const together = await listIdcp(listIdcpBody(VINE, [all]));
    const split = await listIdcp(listIdcpBody(VINE, [all.slice(0, 2), all.slice(2)]));
    const one = await Promise.all(all.map((e) => listIdcp(listIdcpBody(VINE, [[e]]))));
    expect(together.status).toBe(200);
    expect(split.json.idcp).toEqual(together.json.idcp);
    expect(one.map((r) => r.json.idcp[0])).toEqual(together.json.idcp);
    expect(new Set(together.json.idcp.map((e: any) => e.idcp)).size).toBe(5);
  });

  it('matches SIGPAC codes written with leading zeros (046 = 46)', async () => {
    const padded = { ...s(12, 45, 1), prov: '046', town: '0213', pol: '012', parc: '045', enc: '01' };
    const reply = await listIdcp(listIdcpBody(VINE, [[padded]]));
    expect(reply.status).toBe(200);
    expect(reply.json.idcp[0].idcp).toBe(lookupIdcp(0, 12, 45, 1));
  });

  it('gives the same enclosure under another crop its own idcp, the one the farm lookup shows for that crop', async () => {
    const reply = await listIdcp(listIdcpBody(OLIVE, [[s(12, 45, 1)]]));
    expect(reply.status).toBe(200);
    expect(reply.json.crop).toEqual({ typecrop: { id: '101', name: 'OLIVO' }, code: 2001, name: 'BLANQUETA' });
    expect(reply.json.idcp[0].idcp).toBe(lookupIdcp(1, 12, 45, 1));
    expect(reply.json.idcp[0].idcp).not.toBe(lookupIdcp(0, 12, 45, 1));
  });

  it("404s listing every enclosure that is not the crop's on the farm", async () => {
    const reply = await listIdcp(
      listIdcpBody(VINE, [
        [s(12, 45, 1), s(99, 1, 1)],
        [s(14, 7, 9), s(14, 7, 1), s(12, 45, 1, '47')],
      ]),
    );
    expectProblem(reply, 404);
    expect(codesAndPaths(reply)).toEqual([
      ['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[0].sigpac[1]'],
      ['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[1].sigpac[0]'],
      ['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[1].sigpac[2]'],
    ]);
    // an enclosure of the farm that grows the vine only is not the olive's
    const olive = await listIdcp(listIdcpBody(OLIVE, [[s(14, 7, 1)]]));
    expectProblem(olive, 404);
    expect(codesAndPaths(olive)).toEqual([['ENCLOSURE_NOT_FOUND', 'body.regionalAttributes[0].sigpac[0]']]);
  });

  it('404s a crop variety the farm does not grow', async () => {
    for (const crop of [
      { typecropId: '102', code: 9999 },
      { typecropId: '1', code: 1001 },
    ]) {
      const reply = await listIdcp(listIdcpBody(crop, [[s(12, 45, 1)]]));
      expectProblem(reply, 404);
      expect(codesAndPaths(reply)).toEqual([['CROP_NOT_FOUND', 'body.crop']]);
    }
  });

  it('404s an unknown or malformed agrifarmId with the spec message, and a foreign one exactly alike', async () => {
    const body = listIdcpBody(VINE, [[s(12, 45, 1)]]);
    const replies = await Promise.all([
      listIdcp(body, 'urn:ngsi-ld:AgriFarm:9999999999'),
      listIdcp(body, 'urn:ngsi-ld:AgriFarm:abc'),
      listIdcp(body, 'urn:ngsi-ld:AgriCrop:1'),
      listIdcp(body, farmIdB), // client B's farm
    ]);
    for (const reply of replies) {
      expectProblem(reply, 404);
      expect(reply.json.detail).toBe('agrifarmId not found or not accessible');
      expect(codesAndPaths(reply)).toEqual([['AGRIFARM_NOT_FOUND', 'query.agrifarmId']]);
      expect(reply.text).toBe(replies[0].text);
    }
  });

  it('400s a missing agrifarmId', async () => {
    const reply = await postJson('/v1/siex/listidcp/', listIdcpBody(VINE, [[s(12, 45, 1)]]), clientA);
    expectProblem(reply, 400);
    expect(codesAndPaths(reply)).toEqual([['REQUIRED', 'query.agrifarmId']]);
  });

  it('400s a body that is not JSON', async () => {
    const reply = await call('POST', `/v1/siex/listidcp/?agrifarmId=${farmIdA}`, {
      keys: clientA,
      headers: { 'Content-Type': 'application/json' },
      body: '{"type": "IDCP", ',
    });
    expectProblem(reply, 400);
    expect(codesAndPaths(reply)).toEqual([['MALFORMED_JSON', 'body']]);
  });

  it('400s a body sent with another content type, or none', async () => {
    const body = JSON.stringify(listIdcpBody(VINE, [[s(12, 45, 1)]]));
    const contentTypes: Record<string, string>[] = [
      { 'Content-Type': 'text/plain' },
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      {},
    ];
    for (const headers of contentTypes) {
      const reply = await call('POST', `/v1/siex/listidcp/?agrifarmId=${farmIdA}`, {
        keys: clientA,
        headers,
        body: Buffer.from(body),
      });
      expectProblem(reply, 400);
      expect(codesAndPaths(reply)).toEqual([['UNSUPPORTED_MEDIA_TYPE', 'header.Content-Type']]);
    }
    const charset = await call('POST', `/v1/siex/listidcp/?agrifarmId=${farmIdA}`, {
      keys: clientA,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body,
    });
    expect(charset.status).toBe(200);
  });

  it('400s an empty body', async () => {
    const reply = await call('POST', `/v1/siex/listidcp/?agrifarmId=${farmIdA}`, {
      keys: clientA,
      headers: { 'Content-Type': 'application/json' },
    });
    expectProblem(reply, 400);
    expect(codesAndPaths(reply)).toEqual([['REQUIRED', 'body']]);
  });

  it('400s a body with missing, wrong and unknown fields, listing every violation', async () => {
    const body: any = listIdcpBody(VINE, [[s(12, 45, 1), s(12, 45, 2)]]);
    delete body.type;
    delete body.crop.name;
    body.crop.code = '1001';
    body.regionalAttributes[0].sigpac[1].prov = 46;
    delete body.regionalAttributes[0].sigpac[1].enc;
    body.regionalAttributes[0].sigpac[1].dimension = '1.0';
    const reply = await listIdcp(body);
    expectProblem(reply, 400);
    expect(codesAndPaths(reply)).toEqual(
      expect.arrayContaining([
        ['REQUIRED', 'body.type'],
        ['REQUIRED', 'body.crop.name'],
        ['INVALID_VALUE', 'body.crop.code'],
        ['INVALID_VALUE', 'body.regionalAttributes[0].sigpac[1].prov'],
        ['REQUIRED', 'body.regionalAttributes[0].sigpac[1].enc'],
        ['UNKNOWN_FIELD', 'body.regionalAttributes[0].sigpac[1].dimension'],
      ]),
    );
    expect(reply.json.errors).toHaveLength(6);
  });

  it('400s bodies of the wrong overall form', async () => {
    for (const body of [[], 'IDCP', { ...listIdcpBody(VINE, []) }, listIdcpBody(VINE, [[]])]) {
      const reply = await listIdcp(body);
      expectProblem(reply, 400);
      expect(reply.json.errors.every((e: any) => ['INVALID_VALUE', 'REQUIRED'].includes(e.code))).toBe(true);
    }
  });

  it('validates the request (400) before looking at the farm, so a foreign farm learns nothing from a bad body', async () => {
    const reply = await listIdcp({ type: 'IDCP' }, farmIdB);
    expectProblem(reply, 400);
  });
});
