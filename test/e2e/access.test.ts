import { buildOpenApiDocument } from '../../shared/openapi/document';
import { CAMPAIGN, dataset, testClient, testFarm, uniqueRea } from '../helpers/dataset';
import { get, listIdcpBody, postJson, Reply, seed } from '../helpers/http';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Cross-client probe of every endpoint of the farm flow: each client presents its own valid keys and asks for the
 * other's farm. The answer must be 404 and byte-for-byte the answer for a farm that does not exist (docs/architecture.md, "Identity and access"),
 * while the owner gets 200 for the very same request.
 */
const reaA = uniqueRea();
const reaB = uniqueRea();
const neverRea = uniqueRea();
const clientA = testClient('probe-a', [reaA]);
const clientB = testClient('probe-b', [reaB]);
const NO_FARM = 'urn:ngsi-ld:AgriFarm:9999999998';
const ids: Record<string, string> = {};

const vineBody = listIdcpBody({ typecropId: '102', code: 1001 }, [
  [{ prov: '46', town: '213', aggr: '0', zone: '0', pol: '12', parc: '45', enc: '1' }],
]);

/** The operations of the farm flow, as (caller, target farm) → reply. */
const probes: [string, (keys: typeof clientA, rea: string, agrifarmId: string) => Promise<Reply>][] = [
  ['GET /v1/siex/farms', (keys, rea) => get(`/v1/siex/farms?rea=${rea}&year=${CAMPAIGN}`, keys)],
  [
    'POST /v1/siex/listidcp/',
    (keys, _, id) => postJson(`/v1/siex/listidcp/?agrifarmId=${encodeURIComponent(id)}`, vineBody, keys),
  ],
  [
    'POST /v1/siex/listidcp',
    (keys, _, id) => postJson(`/v1/siex/listidcp?agrifarmId=${encodeURIComponent(id)}`, vineBody, keys),
  ],
];

beforeAll(async () => {
  await seed(dataset({ clients: [clientA, clientB], farms: [testFarm(reaA), testFarm(reaB)] }));
  ids[reaA] = (await get(`/v1/siex/farms?rea=${reaA}&year=${CAMPAIGN}`, clientA)).json[0].id;
  ids[reaB] = (await get(`/v1/siex/farms?rea=${reaB}&year=${CAMPAIGN}`, clientB)).json[0].id;
});

describe('cross-client probe', () => {
  it.each(probes)(
    '%s: the owner is served, the other client gets the 404 of a farm that does not exist',
    async (_, send) => {
      for (const [owner, prober, rea] of [
        [clientA, clientB, reaA],
        [clientB, clientA, reaB],
      ] as const) {
        expect((await send(owner, rea, ids[rea])).status).toBe(200);
        const foreign = await send(prober, rea, ids[rea]);
        const missing = await send(prober, neverRea, NO_FARM);
        expect(foreign.status).toBe(404);
        checkProblemShape(foreign.json, 404);
        expect(foreign.headers.get('content-type')).toBe(missing.headers.get('content-type'));
        // identical once the identifiers asked for are swapped
        expect(foreign.text).toBe(missing.text.split(neverRea).join(rea).split(NO_FARM).join(ids[rea]));
      }
    },
  );
});

describe('GET /v1/openapi.json', () => {
  it('serves the OpenAPI 3.1 document without keys, as generated from the contracts', async () => {
    const reply = await get('/v1/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.json.openapi).toMatch(/^3\.1\./);
    expect(reply.json).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(Object.keys(reply.json.paths)).toEqual(expect.arrayContaining(['/v1/siex/farms', '/v1/siex/listidcp']));
  });
});
