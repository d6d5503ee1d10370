import { ANCHOR } from '../helpers/dataset';
import { sendableFarm } from '../helpers/export-stack';
import { mineralBody } from '../helpers/fertilization-fixtures';
import { call, get, Keys, postJson, Reply } from '../helpers/http';
import {
  body,
  farmOverHttp,
  list,
  register,
  REGISTER_PATH,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';
import { testTables } from '../helpers/storage';
import { idempotencyHash } from '../../shared/idempotency/idempotency';
import { TABLES } from '../../shared/store/tables';

/**
 * Issue 36, "Inputs", over HTTP through the local runner: lone surrogates and the object machinery's member names are
 * 400 at their path on every body (a registration, a merge patch), and nothing is stored; NUL and U+2028 are text as
 * before. An Idempotency-Key belongs to one client and one operation: the same key on another operation is 422
 * IDEMPOTENCY_KEY_REUSED and stores nothing, while its retries on its own operation replay as before, a key stored
 * before bindings existed included.
 */
const rea = uniqueRea();
const owner = testClient('inputs-owner', [rea]);
const other = testClient('inputs-other', [rea]);
const keys: Keys = { sidKey: owner.sidKey, apiKey: owner.apiKey };
let farm: Awaited<ReturnType<typeof farmOverHttp>>;

const FERTILIZATION_PATH = '/v1/entities/agrifertilizes/';
const day = (daysBack: number) => ANCHOR.minus({ days: daysBack }).toFormat('dd-MM-yyyy');
const query = () => `?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`;
const recordPath = (id: string) => `${REGISTER_PATH}${encodeURIComponent(id)}${query()}`;
const withKey = (key: string) => ({ 'Idempotency-Key': key });

const treatment = (o: Record<string, unknown> = {}) => body({ idcp: [farm.vine[0]], ...o });
const fertilize = (headers: Record<string, string>, k = keys) =>
  postJson(`${FERTILIZATION_PATH}${query()}`, mineralBody({ dateStart: day(3), idcp: [farm.vine[1]] }), k, headers);
const exportCue = (ids: string[], headers: Record<string, string>) =>
  postJson(
    `/v1/entities/siex/exportCUE${query()}`,
    ids.map((id) => ({ id })),
    keys,
    headers,
  );
const treatments = async () => (await list(keys, farm.agrifarmId)).json.map((r: { id: string }) => r.id).sort();
const fertilizations = async () => (await get(`${FERTILIZATION_PATH}${query()}`, keys)).json.length as number;

function expectProblem(res: Reply, status: number, errors: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string; path: string }) => `${e.code} ${e.path}`)]).toEqual([
    status,
    errors,
  ]);
  checkProblemShape(res.json, status);
}

beforeAll(async () => {
  await seedPhyto({ farms: [sendableFarm(rea)], clients: [owner, other] });
  farm = await farmOverHttp(keys, rea);
});

describe('text a body may hold', () => {
  it('refuses lone surrogates in values and names at their paths, every one listed, and stores nothing', async () => {
    const before = await treatments();
    // JSON.stringify writes a lone surrogate as its escape, as a client's serializer would send it.
    const sent = JSON.stringify(treatment({ detail: 'Observación \ud800', batch: '\udc00L-1' })).replace(
      '"detail"',
      '"x\\ud83d":1,"detail"',
    );
    const res = await call('POST', `${REGISTER_PATH}${query()}`, {
      keys,
      headers: { 'Content-Type': 'application/json' },
      body: sent,
    });
    expectProblem(res, 400, [
      'LONE_SURROGATE body.x\\uD83D',
      'LONE_SURROGATE body.detail',
      'LONE_SURROGATE body.batch',
    ]);
    expect(res.json.errors[1].message).toBe('a lone surrogate (\\uD800) at character 13: not a Unicode character');
    expect(await treatments()).toEqual(before);
  });

  it('keeps NUL and U+2028 as text, as before, and a surrogate pair as its character', async () => {
    const detail = 'línea 1\u2028línea 2\u0000 😀';
    const res = await register(keys, farm.agrifarmId, treatment({ detail }));
    expect([res.status, res.json[0]?.detail]).toEqual([201, detail]);
  });
});

describe("the object machinery's member names", () => {
  it('are 400 in a merge patch, which used to be 200 and ignored, and the record stays as it was', async () => {
    const made = await register(keys, farm.agrifarmId, treatment({ idcp: [farm.vine[2]] }));
    expect(made.status).toBe(201);
    const id = made.json[0].id as string;
    const patch = (text: string) =>
      call('PATCH', recordPath(id), { keys, headers: { 'Content-Type': 'application/merge-patch+json' }, body: text });
    expectProblem(await patch('{"__proto__":{"dose":0.5}}'), 400, ['RESERVED_MEMBER_NAME body.__proto__']);
    expectProblem(await patch('{"dose":0.5,"applicator":{"constructor":{"prototype":{}}}}'), 400, [
      'RESERVED_MEMBER_NAME body.applicator.constructor',
      'RESERVED_MEMBER_NAME body.applicator.constructor.prototype',
    ]);
    const read = await get(recordPath(id), keys);
    expect([read.headers.get('etag'), read.json[0].dose]).toEqual(['"1"', made.json[0].dose]);
  });

  it('are 400 on a registration and an export too', async () => {
    const before = await treatments();
    const sent = JSON.stringify(treatment()).replace('"type"', '"prototype":1,"type"');
    const res = await call('POST', `${REGISTER_PATH}${query()}`, {
      keys,
      headers: { 'Content-Type': 'application/json' },
      body: sent,
    });
    expectProblem(res, 400, ['RESERVED_MEMBER_NAME body.prototype']);
    const exported = await call('POST', `/v1/entities/siex/exportCUE${query()}`, {
      keys,
      headers: { 'Content-Type': 'application/json' },
      body: '[{"id":"urn:ngsi-ld:AgriPhytosanitary:1","__proto__":null}]',
    });
    expectProblem(exported, 400, ['RESERVED_MEMBER_NAME body[0].__proto__']);
    expect(await treatments()).toEqual(before);
  });
});

describe('an Idempotency-Key', () => {
  const key = () => `inputs-${Date.now()}-${Math.random().toString(36).slice(2)}`;

  it('belongs to its first operation: on another it is 422 and stores nothing, on its own it replays', async () => {
    const k = key();
    const first = await register(keys, farm.agrifarmId, treatment(), withKey(k));
    expect(first.status).toBe(201);
    const [treated, fertilized] = [await treatments(), await fertilizations()];

    expectProblem(await fertilize(withKey(k)), 422, ['IDEMPOTENCY_KEY_REUSED header.Idempotency-Key']);
    expectProblem(await exportCue([first.json[0].id], withKey(k)), 422, [
      'IDEMPOTENCY_KEY_REUSED header.Idempotency-Key',
    ]);
    expectProblem(await postJson(`${REGISTER_PATH}batch${query()}`, [treatment()], keys, withKey(k)), 422, [
      'IDEMPOTENCY_KEY_REUSED header.Idempotency-Key',
    ]);
    expect([await treatments(), await fertilizations()]).toEqual([treated, fertilized]);

    const again = await register(keys, farm.agrifarmId, treatment(), withKey(k));
    expect([again.status, again.text]).toEqual([first.status, first.text]);
    // Another client's same key is its own.
    expect((await fertilize(withKey(k), { sidKey: other.sidKey, apiKey: other.apiKey })).status).toBe(201);
  });

  it("the other way round: a fertilization's key on a treatment is 422", async () => {
    const k = key();
    expect((await fertilize(withKey(k))).status).toBe(201);
    const before = await treatments();
    expectProblem(await register(keys, farm.agrifarmId, treatment(), withKey(k)), 422, [
      'IDEMPOTENCY_KEY_REUSED header.Idempotency-Key',
    ]);
    expect(await treatments()).toEqual(before);
  });

  it('is free again after its first request was refused (nothing was stored under it)', async () => {
    const k = key();
    const refused = await register(
      keys,
      farm.agrifarmId,
      treatment({ dateApplication: '01-01-2020 08:00:00' }),
      withKey(k),
    );
    expect(refused.status).toBe(422);
    expect((await fertilize(withKey(k))).status).toBe(201);
  });

  it('stored before keys were bound replays on its operation, and is bound to it from then on', async () => {
    const k = key();
    const first = await register(keys, farm.agrifarmId, treatment(), withKey(k));
    expect(first.status).toBe(201);
    // As the key was before this change: its answer beside the records, no binding.
    const bindings = await testTables().table(TABLES.idempotency);
    await bindings.deleteEntity(idempotencyHash(owner.id, k), 'operation');
    const again = await register(keys, farm.agrifarmId, treatment(), withKey(k));
    expect([again.status, again.text]).toEqual([first.status, first.text]);
    expectProblem(await fertilize(withKey(k)), 422, ['IDEMPOTENCY_KEY_REUSED header.Idempotency-Key']);
  });
});
