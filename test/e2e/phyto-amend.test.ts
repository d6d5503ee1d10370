import { MAX_IDCP_PER_RECORD } from '../../shared/api/record-fields';
import { call, Keys, Reply } from '../helpers/http';
import {
  APPLICATORS,
  body,
  daysAgo,
  farmOverHttp,
  list,
  P,
  phytoFarm,
  register,
  REGISTER_PATH,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { checkProblemShape } from '../helpers/spec-shapes';

/**
 * Issue 13 over HTTP through the local runner: records corrected with a JSON Merge Patch (validated whole, ETag and
 * If-Match, idempotent), deleted while SIEX never had them (they leave the list and the count rules at once), and
 * their history, version by version, kept after deletion. Another client's record is 404 on every route.
 */
const rea = { owner: uniqueRea(), other: uniqueRea(), large: uniqueRea() };
const owner = testClient('amend-owner', [rea.owner, rea.large]);
const stranger = testClient('amend-stranger', [rea.other]);
let farm: Awaited<ReturnType<typeof farmOverHttp>>;

const WHEAT_TOPIK = {
  subtype: { type: 'TypePhytosanitary' as const, name: 'TOPIK', code: P.topik },
  dose: 0.2,
  measure: { type: 'Measure' as const, name: 'Litros por hectárea', symbol: 'L/ha', code: 18 },
  applicator: {
    user: { type: 'UserMetadata' as const, nif: APPLICATORS.cualificado.nif, ropo: APPLICATORS.cualificado.ropo },
  },
  infection: { type: 'TypeInfection' as const, kind: 'mala_hierba' as const, id: '141', name: 'Avenas locas' },
  tj: [{ type: 'TypeJustification' as const, id: '1', name: '' }],
};
const EFFICACY = { type: 'TypeEfficacy', id: '2', name: 'Muy buena', detail: 'revisado a los 10 días' };

const recordPath = (id: string, suffix = '') =>
  `${REGISTER_PATH}${encodeURIComponent(id)}${suffix}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`;

function patch(keys: Keys, id: string, changes: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return call('PATCH', recordPath(id), {
    keys,
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(changes),
  });
}

const remove = (keys: Keys, id: string, headers: Record<string, string> = {}) =>
  call('DELETE', recordPath(id), { keys, headers });
const history = (keys: Keys, id: string) => call('GET', recordPath(id, '/history'), { keys });

function expectProblem(res: Reply, status: number, codes: string[]): void {
  expect([res.status, res.json?.errors?.map((e: { code: string }) => e.code)]).toEqual([status, codes]);
  checkProblemShape(res.json, status);
}

async function registered(b = body({ ...WHEAT_TOPIK, idcp: [farm.wheat] })): Promise<{ id: string; res: Reply }> {
  const res = await register(owner, farm.agrifarmId, b);
  if (res.status !== 201) throw new Error(res.text);
  return { id: res.json[0].id as string, res };
}

async function listed(id: string): Promise<any> {
  const all = await list(owner, farm.agrifarmId);
  return all.json.find((r: { id: string }) => r.id === id);
}

beforeAll(async () => {
  await seedPhyto({
    farms: [phytoFarm(rea.owner), phytoFarm(rea.other), phytoFarm(rea.large, MAX_IDCP_PER_RECORD)],
    clients: [owner, stranger],
  });
  farm = await farmOverHttp(owner, rea.owner);
});

describe('amend (PATCH, JSON Merge Patch)', () => {
  let id: string;

  it('completes a record with its efficacy: 200, the record in an array, dateModified set, a new ETag', async () => {
    const first = await registered();
    id = first.id;
    expect(first.res.headers.get('etag')).toBe('"1"');
    expect(first.res.json[0].efficacy.id).toBe('');
    const res = await patch(owner, id, { efficacy: EFFICACY });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.json).toHaveLength(1);
    expect(res.json[0]).toMatchObject({
      id,
      efficacy: EFFICACY,
      dateCreated: first.res.json[0].dateCreated,
      dose: '0.2',
      exported: '0',
    });
    expect(res.json[0].dateModified).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
    expect((await listed(id)).efficacy).toEqual(EFFICACY);
  });

  it('a dose over the label is 422 like a registration, and the record is unchanged', async () => {
    const before = await listed(id);
    const res = await patch(owner, id, { dose: 0.5 });
    expectProblem(res, 422, ['DOSE_ABOVE_MAX']);
    expect(await listed(id)).toEqual(before);
    expect((await history(owner, id)).json).toHaveLength(2);
  });

  it('validates the merged request whole: every violation listed, nothing changed', async () => {
    const before = await listed(id);
    expectProblem(await patch(owner, id, { dose: null }), 400, ['REQUIRED']);
    expectProblem(await patch(owner, id, { colour: 'red' }), 400, ['UNKNOWN_FIELD']);
    expectProblem(await patch(owner, id, { dose: 'a lot', idcp: [] }), 400, ['INVALID_VALUE', 'INVALID_VALUE']);
    expectProblem(await patch(owner, id, ['not', 'an', 'object']), 400, ['INVALID_VALUE']);
    expectProblem(await patch(owner, id, { idcp: ['999999'] }), 404, ['IDCP_NOT_FOUND']);
    expect(await listed(id)).toEqual(before);
  });

  it('honours If-Match: the current ETag applies, a stale one is 412 and changes nothing', async () => {
    expectProblem(await patch(owner, id, { detail: 'late' }, { 'If-Match': '"1"' }), 412, ['PRECONDITION_FAILED']);
    const res = await patch(owner, id, { detail: 'aplicado con viento en calma' }, { 'If-Match': '"2"' });
    expect([res.status, res.headers.get('etag')]).toEqual([200, '"3"']);
    expect(res.json[0].detail).toBe('aplicado con viento en calma');
  });

  it('removes an optional field with null, and keeps the record when a patch changes nothing', async () => {
    const res = await patch(owner, id, { detail: null });
    expect([res.status, res.json[0].detail, res.headers.get('etag')]).toEqual([200, null, '"4"']);
    const same = await patch(owner, id, { dose: 0.2 });
    expect([same.status, same.headers.get('etag'), same.json[0].dose]).toEqual([200, '"4"', '0.2']);
  });

  it('moves the application date within the window; a new date further back is refused', async () => {
    const res = await patch(owner, id, { dateApplication: daysAgo(2, '09:30') });
    expect([res.status, res.json[0].dateApplication]).toEqual([200, daysAgo(2, '09:30')]);
    expect((await listed(id)).dateApplication).toBe(daysAgo(2, '09:30'));
    const old = await patch(owner, id, { dateApplication: daysAgo(60, '09:30') });
    expect(old.status).toBe(422);
    expect(old.json.errors.map((e: { code: string }) => e.code)).toContain('DATE_TOO_OLD');
  });

  it(`changes product and date of a record on ${MAX_IDCP_PER_RECORD} enclosures in one transaction`, async () => {
    // The largest amendment there is: every enclosure's history of the old product and of the new one, the record
    // under its old and new key, pointer, version, idempotency entry and list token: all in one transaction.
    const large = await farmOverHttp(owner, rea.large);
    expect(large.vine).toHaveLength(MAX_IDCP_PER_RECORD);
    const res = await register(owner, large.agrifarmId, body({ idcp: large.vine }));
    expect(res.status).toBe(201);
    const path = `${REGISTER_PATH}${encodeURIComponent(res.json[0].id)}?agrifarmId=${encodeURIComponent(large.agrifarmId)}`;
    const changed = await call('PATCH', path, {
      keys: owner,
      headers: { 'Content-Type': 'application/merge-patch+json', 'Idempotency-Key': 'large-amend' },
      body: JSON.stringify({ subtype: { code: P.twice }, dateApplication: daysAgo(2, '07:15') }),
    });
    expect([changed.status, changed.json[0].subtype.subtype.code, changed.json[0].idcp]).toEqual([
      200,
      P.twice,
      large.vine,
    ]);
    // the history moved to the new product: one more application of it is allowed on every enclosure, a third is not
    const second = await register(
      owner,
      large.agrifarmId,
      body({ subtype: { ...body().subtype, code: P.twice }, idcp: large.vine }),
    );
    expect(second.status).toBe(201);
    const third = await register(
      owner,
      large.agrifarmId,
      body({ subtype: { ...body().subtype, code: P.twice }, idcp: large.vine }),
    );
    expect(third.status).toBe(422);
  });

  it('with an Idempotency-Key: a retry gets the first answer and makes no new version; another body is 422', async () => {
    const headers = { 'Idempotency-Key': `amend-${id}` };
    const first = await patch(owner, id, { batch: 'L-2026-117' }, headers);
    const again = await patch(owner, id, { batch: 'L-2026-117' }, headers);
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([
      first.status,
      first.text,
      first.headers.get('etag'),
    ]);
    expectProblem(await patch(owner, id, { batch: 'other' }, headers), 422, ['IDEMPOTENCY_KEY_REUSED']);
    const versions = (await history(owner, id)).json;
    expect(
      versions.filter((v: { changes: { field: string }[] }) => v.changes.some((c) => c.field === 'batch')),
    ).toHaveLength(1);
  });

  it('accepts the id URL-encoded or not', async () => {
    const plain = `${REGISTER_PATH}${id}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`;
    const res = await call('PATCH', plain, {
      keys: owner,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ speed: '6' }),
    });
    expect([res.status, res.json[0].speed]).toEqual([200, '6']);
  });
});

describe('a body nested 10,000 deep', () => {
  // Raw text: building it as an object and serializing it would test JSON.stringify instead.
  const deep = '{"detail":'.repeat(10_000) + '"x"' + '}'.repeat(10_000);
  const headers = { 'Content-Type': 'application/merge-patch+json' };

  it('is 400 JSON_TOO_DEEP on PATCH and POST, never a 500, and nothing is stored', async () => {
    // the wheat's record of the amend tests above, or a new one when this test runs alone
    const onWheat = async () =>
      (await list(owner, farm.agrifarmId)).json.filter((r: { idcp: string[] }) => r.idcp[0] === farm.wheat);
    const [held] = (await onWheat()).length > 0 ? await onWheat() : [(await registered()).res.json[0]];
    const id = held.id as string;
    const before = { record: await listed(id), all: (await list(owner, farm.agrifarmId)).json };
    const versions = (await history(owner, id)).json.length;
    expectProblem(await call('PATCH', recordPath(id), { keys: owner, headers, body: deep }), 400, ['JSON_TOO_DEEP']);
    const post = `${REGISTER_PATH}?agrifarmId=${encodeURIComponent(farm.agrifarmId)}`;
    const posted = await call('POST', post, {
      keys: owner,
      headers: { 'Content-Type': 'application/json' },
      body: deep,
    });
    expectProblem(posted, 400, ['JSON_TOO_DEEP']);
    expect(await listed(id)).toEqual(before.record);
    expect((await list(owner, farm.agrifarmId)).json).toEqual(before.all);
    expect((await history(owner, id)).json).toHaveLength(versions);
  });
});

describe('delete (a record SIEX never received)', () => {
  it('frees the count at once: the blocked treatment registers after the deletion (TOPIK, once per campaign)', async () => {
    // the wheat's TOPIK application of the amend tests above, or a new one when this test runs alone
    const onWheat = async () =>
      (await list(owner, farm.agrifarmId)).json.filter((r: { idcp: string[] }) => r.idcp[0] === farm.wheat);
    const [held] = (await onWheat()).length > 0 ? await onWheat() : [(await registered()).res.json[0]];
    expectProblem(await register(owner, farm.agrifarmId, body({ ...WHEAT_TOPIK, idcp: [farm.wheat] })), 422, [
      'MAX_APPLICATIONS',
    ]);
    expectProblem(await remove(owner, held.id, { 'If-Match': '"999"' }), 412, ['PRECONDITION_FAILED']);
    const key = { 'Idempotency-Key': `delete-${held.id}` };
    const res = await remove(owner, held.id, key);
    expect([res.status, res.text]).toEqual([204, '']);
    // a retry under the same key gets the same answer, not a 404
    expect((await remove(owner, held.id, key)).status).toBe(204);
    expect(await listed(held.id)).toBeUndefined();
    expect((await registered()).res.status).toBe(201);

    expectProblem(await remove(owner, held.id), 404, ['RECORD_NOT_FOUND']);
    expectProblem(await patch(owner, held.id, { dose: 0.18 }), 404, ['RECORD_NOT_FOUND']);
    const versions = (await history(owner, held.id)).json as { version: number; kind: string; client: string }[];
    expect(versions.map((v) => v.kind)).toEqual(['created', ...Array(versions.length - 2).fill('amended'), 'deleted']);
    expect(versions.map((v) => v.version)).toEqual(versions.map((_, i) => i + 1));
    expect(new Set(versions.map((v) => v.client))).toEqual(new Set([owner.id]));
  });
});

describe('a record registered with exported=1 (sent to SIEX by other means)', () => {
  it('stays exported when amended, and DELETE removes it here only (204): the gateway never sends it', async () => {
    const res = await register(owner, farm.agrifarmId, body({ idcp: [farm.olive] }), {}, '&exported=1');
    expect([res.status, res.json[0].exported]).toEqual([201, '1']);
    const id = res.json[0].id as string;
    const amended = await patch(owner, id, { dose: 0.62 });
    expect([amended.status, amended.json[0].exported, amended.json[0].dose]).toEqual([200, '1', '0.62']);
    expect((await listed(id)).exported).toBe('1');
    expect((await remove(owner, id)).status).toBe(204);
    expect(await listed(id)).toBeUndefined();
    expect((await history(owner, id)).json.map((v: { kind: string }) => v.kind)).toEqual([
      'created',
      'amended',
      'deleted',
    ]);
  });
});

describe('history', () => {
  it('lists every version oldest first, with the fields changed and their old and new values', async () => {
    const { id } = await registered(body({ idcp: [farm.vine[0]] }));
    await patch(owner, id, { dose: 0.62, efficacy: EFFICACY });
    const res = await history(owner, id);
    expect(res.status).toBe(200);
    const [created, amended] = res.json;
    expect(created).toMatchObject({ version: 1, kind: 'created', client: owner.id });
    expect(created.changes).toContainEqual({ field: 'dose', old: null, new: 0.61 });
    expect(created.date).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(amended).toMatchObject({
      version: 2,
      kind: 'amended',
      changes: [
        { field: 'dose', old: 0.61, new: 0.62 },
        { field: 'efficacy', old: null, new: EFFICACY },
      ],
    });
  });
});

describe("another client's record", () => {
  it('is 404 on every new route, and stays as it was', async () => {
    const { id } = await registered(body({ idcp: [farm.vine[1]] }));
    const before = await listed(id);
    const strangerFarm = await farmOverHttp(stranger, rea.other);
    const theirs = (suffix = '') =>
      `${REGISTER_PATH}${encodeURIComponent(id)}${suffix}?agrifarmId=${encodeURIComponent(strangerFarm.agrifarmId)}`;
    const json = { 'Content-Type': 'application/json' };
    // through its own farm, the record is not one of it; through the owner's farm, the farm is not accessible
    expectProblem(await call('PATCH', theirs(), { keys: stranger, headers: json, body: '{"dose":0.6}' }), 404, [
      'RECORD_NOT_FOUND',
    ]);
    expectProblem(await call('DELETE', theirs(), { keys: stranger }), 404, ['RECORD_NOT_FOUND']);
    expectProblem(await call('GET', theirs('/history'), { keys: stranger }), 404, ['RECORD_NOT_FOUND']);
    expectProblem(await patch(stranger, id, { dose: 0.6 }), 404, ['AGRIFARM_NOT_FOUND']);
    expectProblem(await remove(stranger, id), 404, ['AGRIFARM_NOT_FOUND']);
    expectProblem(await history(stranger, id), 404, ['AGRIFARM_NOT_FOUND']);
    expect(await listed(id)).toEqual(before);
  });

  it('a malformed id is 400, an unknown one 404', async () => {
    expectProblem(await patch(owner, 'urn:ngsi-ld:AgriFarm:1', { dose: 1 }), 400, ['INVALID_VALUE']);
    expectProblem(await remove(owner, 'urn:ngsi-ld:AgriPhytosanitary:9999999999'), 404, ['RECORD_NOT_FOUND']);
  });
});
