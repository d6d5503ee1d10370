import { DateTime } from 'luxon';
import { PhytoRequest } from '../../shared/phyto/wire';
import { VersionedValue } from '../../shared/cache/versioned-value';
import { ReferenceData } from '../../shared/catalog/reference-data';
import { Client } from '../../shared/clients/client-store';
import { FarmIndex } from '../../shared/farms/farm-index';
import { idempotencyHash, requestFingerprint } from '../../shared/idempotency/idempotency';
import { DomainError } from '../../shared/domain/errors';
import { FarmKey } from '../../shared/records/record-keys';
import { statusOf } from '../../shared/http/error-status';
import { IdempotencyEntry, RecordPointer, storedAnswerOf, storedResponseOf } from '../../shared/records/record-rows';
import { RegistrationState, WriteConflict } from '../../shared/records/record-store';
import { PhytoChange } from '../../shared/phyto/phyto-store';
import { registerRecord, RegisterDeps } from '../../shared/records/register-record';
import { phytoKind, PhytoResolution } from '../../shared/phyto/phyto-kind';
import { StoredTreatment } from '../../shared/phyto/stored-record';
import { Treatment } from '../../shared/phyto/treatment';
import { RegisterInput } from '../../shared/records/register-record';
import { DayCounts } from '../../shared/phyto/application-history';
import { asReply } from '../helpers/phyto-stack';
import { MAX_ATTEMPTS } from '../../shared/records/conflict-retries';
import {
  CARDS,
  famolins,
  farmIndexDoc,
  madrid,
  microthiol,
  phytoRequest,
  priorApplications,
  testSiexCodes,
  topik,
} from '../helpers/phyto-fixtures';
import { isExported } from '../../shared/records/export-state';

/**
 * The registration service with its storage replaced by an in-memory fake: date parsing (the DST gap is INVALID_DATE,
 * the repeated hour resolves to its first occurrence), the farm check, idempotency decisions, and the optimistic
 * retry that re-reads history and re-validates after a write conflict (no lost update).
 */
const AGRIFARM = 'urn:ngsi-ld:AgriFarm:4242';
const client: Client = {
  id: 'svc-test',
  name: 'T',
  email: 't@x',
  apiKeyHash: '',
  expires: '',
  farms: ['RULES0001'],
  apimSubscriptionId: 'sub-1',
  webhookUrl: '',
};
/** The SIGPAC code of idcp 101's enclosure in the hand-written farm index. */
const VINE_101 = '46-213-0-0-12-45-1';
const stranger: Client = { ...client, id: 'other', farms: ['SOMEONE-ELSE'] };

class FakeStore {
  states: RegistrationState[] = [];
  reads = 0;
  inserts: {
    farm: FarmKey;
    rec: { id: number; product: string; appliedAtMs: number; exported: boolean };
    /** As the store writes them: applications by day, in the rows' `days` column. */
    guards: { rowKey: string; days: DayCounts; etag?: string }[];
    /** As the store writes it: the answer's status, body and ETag. */
    idem: (IdempotencyEntry & { hash: string }) | null;
    change: PhytoChange;
  }[] = [];
  conflicts = 0;
  /** Commits that land but answer as a conflict: what an SDK retry of a write whose answer was lost gets. */
  lostAnswers = 0;

  async readRegistrationState(): Promise<RegistrationState> {
    const state = this.states[Math.min(this.reads, this.states.length - 1)] ?? { guards: new Map(), idempotency: null };
    this.reads++;
    return state;
  }

  async commit(farm: FarmKey, change: PhytoChange): Promise<void> {
    if (this.conflicts > 0) {
      this.conflicts--;
      throw new WriteConflict('etag mismatch');
    }
    const { product, appliedAtMs } = change.write!;
    this.inserts.push({
      farm,
      rec: { id: change.id, product, appliedAtMs, exported: isExported(change.pointer.row.exportState) },
      guards: change.guards.map(({ doc, ...g }) => ({ ...g, days: doc as DayCounts })),
      idem: change.idempotency && storedResponseOf(change.idempotency),
      change,
    });
    if (this.lostAnswers > 0) {
      this.lostAnswers--;
      throw new WriteConflict('entity already exists');
    }
  }

  async readPointers(_farm: FarmKey, ids: number[]): Promise<Map<number, RecordPointer>> {
    const stored = new Set(this.inserts.map((i) => i.rec.id));
    return new Map(ids.filter((id) => stored.has(id)).map((id) => [id, { id } as RecordPointer]));
  }
}

function deps(
  store: FakeStore,
  now = '15-05-2026 12:00:00',
): RegisterDeps<Treatment, StoredTreatment, PhytoResolution> {
  const farm = new FarmIndex(farmIndexDoc());
  const reference: ReferenceData = {
    products: new Map([microthiol(), famolins(), topik()].map((p) => [p.code, p])),
    applicators: new Map(Object.values(CARDS).map((a) => [a.ropo, a])),
    codes: testSiexCodes(),
  };
  let next = 100;
  return {
    kind: phytoKind,
    farms: { index: async (id: number) => (id === 4242 ? farm : null) },
    reference: new VersionedValue(
      async () => 'v1',
      async () => reference,
      3_600_000,
    ),
    store,
    ids: { take: async () => next++ },
    settings: { MAX_BACKDATE_DAYS: 7 },
    now: () => madrid(now),
    sleep: async () => undefined,
  };
}

async function problem(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

const input = (body: Partial<PhytoRequest> = {}, o: { key?: string; who?: Client; agrifarmId?: string } = {}) => ({
  client: o.who ?? client,
  agrifarmId: o.agrifarmId ?? AGRIFARM,
  exported: false,
  body: phytoRequest(body),
  idempotencyKey: o.key ?? null,
});

/** The registration service, answered as the HTTP edge answers it. */
const registerApplication = async (d: ReturnType<typeof deps>, i: RegisterInput) => asReply(await registerRecord(d, i));

describe('registerApplication (storage faked)', () => {
  it('stores a lawful application: record, one guard per location with the new application, 201 with the record', async () => {
    const store = new FakeStore();
    const res = await registerApplication(deps(store), input({ idcp: ['101', '102'] }));
    expect(res.status).toBe(201);
    const [record] = JSON.parse(res.body);
    expect(record.id).toBe('urn:ngsi-ld:AgriPhytosanitary:100');
    expect(store.inserts).toHaveLength(1);
    const { rec, guards } = store.inserts[0];
    expect(rec).toMatchObject({
      id: 100,
      product: 'ES-11179',
      appliedAtMs: madrid('14-05-2026 10:00:00').toMillis(),
      exported: false,
    });
    expect(store.inserts[0].farm).toMatchObject({ farmId: 4242, rea: 'RULES0001' });
    expect(guards.map((g) => [g.rowKey, g.days])).toEqual([
      ['g~ES-11179~46-213-0-0-12-45-1', { '2026-05-14': 1 }],
      ['g~ES-11179~46-213-0-0-12-45-2', { '2026-05-14': 1 }],
    ]);
  });

  it.each([
    ['29-03-2026 02:30:00', 'the hour skipped when summer time starts'],
    ['31-02-2026 10:00:00', 'a day that does not exist'],
    ['2026-03-25 10:00:00', 'ISO order'],
    ['25-03-2026 10:00', 'no seconds'],
    ['25-03-2026 24:00:00', 'hour 24'],
    ['', 'empty'],
  ])('answers %p (%s) with 400 INVALID_DATE and stores nothing', async (dateApplication) => {
    const store = new FakeStore();
    const e = await problem(registerApplication(deps(store), input({ dateApplication })));
    expect(statusOf(e.violations)).toBe(400);
    expect(e.violations).toEqual([{ code: 'INVALID_DATE', path: 'body.dateApplication', message: expect.any(String) }]);
    expect(store.inserts).toHaveLength(0);
  });

  it('takes the repeated hour when summer time ends (25-10-2026 02:30) as its first occurrence, still summer time', async () => {
    const store = new FakeStore();
    const res = await registerApplication(
      deps(store, '25-10-2026 12:00:00'),
      input({ dateApplication: '25-10-2026 02:30:00', idcp: ['201'] }),
    );
    expect(res.status).toBe(201);
    expect(store.inserts[0].rec.appliedAtMs).toBe(DateTime.fromISO('2026-10-25T00:30:00Z').toMillis());
    expect(JSON.parse(res.body)[0].dateApplication).toBe('25-10-2026 02:30:00');
  });

  it("answers an unknown or foreign farm with the spec's 404 message, before looking at the body", async () => {
    for (const o of [{ agrifarmId: 'urn:ngsi-ld:AgriFarm:9999' }, { who: stranger }, { agrifarmId: 'not-a-urn' }]) {
      const e = await problem(registerApplication(deps(new FakeStore()), input({ dateApplication: 'garbage' }, o)));
      expect(statusOf(e.violations)).toBe(404);
      expect(e.detail).toBe('agrifarmId not found or not accessible');
      expect(e.violations).toEqual([
        { code: 'AGRIFARM_NOT_FOUND', path: 'query.agrifarmId', message: 'agrifarmId not found or not accessible' },
      ]);
    }
  });

  it('refuses with every violation and the status they earn, writing nothing', async () => {
    const store = new FakeStore();
    const e = await problem(registerApplication(deps(store), input({ dose: 5, idcp: ['101', '999'] })));
    expect(statusOf(e.violations)).toBe(404);
    expect(e.violations.map((v) => v.code)).toEqual(['IDCP_NOT_FOUND', 'DOSE_ABOVE_MAX']);
    expect(store.inserts).toHaveLength(0);
  });

  it('after a write conflict re-reads the history and re-validates: the application that became unlawful is refused', async () => {
    const store = new FakeStore();
    store.conflicts = 1;
    const clash = {
      rowKey: `g~ES-11179~${VINE_101}`,
      doc: priorApplications(['12-05-2026 10:00:00']),
      etag: 'W/"2"',
    };
    store.states = [
      { guards: new Map(), idempotency: null },
      { guards: new Map([[clash.rowKey, clash]]), idempotency: null },
    ];
    const e = await problem(registerApplication(deps(store), input()));
    expect(statusOf(e.violations)).toBe(422);
    expect(e.violations.map((v) => v.code)).toEqual(['MIN_INTERVAL']);
    expect(store.reads).toBe(2);
    expect(store.inserts).toHaveLength(0);
  });

  it('a write that landed but answered as a conflict (its answer lost, its retry refused) is the answer: stored once, not judged again', async () => {
    const store = new FakeStore();
    store.lostAnswers = 1;
    const res = await registerApplication(deps(store), input());
    expect(res.status).toBe(201);
    expect(store.inserts.map((i) => i.rec.id)).toEqual([100]);
    expect(JSON.parse(res.body)[0].id).toBe('urn:ngsi-ld:AgriPhytosanitary:100');
    expect(store.reads).toBe(1);
  });

  it('after a write conflict that changed nothing relevant, stores on the next attempt, under the new ETag and a new id', async () => {
    const store = new FakeStore();
    store.conflicts = 2;
    const far = {
      rowKey: `g~ES-11179~${VINE_101}`,
      doc: priorApplications(['01-05-2026 10:00:00']),
      etag: 'W/"3"',
    };
    store.states = [
      { guards: new Map(), idempotency: null },
      { guards: new Map(), idempotency: null },
      { guards: new Map([[far.rowKey, far]]), idempotency: null },
    ];
    const res = await registerApplication(deps(store), input());
    expect(res.status).toBe(201);
    expect(store.reads).toBe(3);
    const { rec, guards } = store.inserts[0];
    // ids of the failed attempts are never reused
    expect(rec.id).toBe(102);
    expect(guards).toEqual([
      {
        rowKey: `g~ES-11179~${VINE_101}`,
        etag: 'W/"3"',
        days: { '2026-05-01': 1, '2026-05-14': 1 },
      },
    ]);
  });

  it('gives up with 503 CONCURRENT_UPDATE and Retry-After after MAX_ATTEMPTS conflicting attempts', async () => {
    const store = new FakeStore();
    store.conflicts = 1000;
    const e = await problem(registerApplication(deps(store), input()));
    expect(statusOf(e.violations)).toBe(503);
    expect(e.violations.map((v) => v.code)).toEqual(['CONCURRENT_UPDATE']);
    expect(e.retryAfterSeconds).toBe(1);
    expect(store.reads).toBe(MAX_ATTEMPTS);
  });

  it('with an Idempotency-Key: writes the entry with the response; a stored entry for the same request is returned as is', async () => {
    const store = new FakeStore();
    const res = await registerApplication(deps(store), input({}, { key: 'k-1' }));
    const { idem } = store.inserts[0];
    expect(idem).toEqual({
      hash: idempotencyHash(client.id, 'k-1'),
      requestHash: requestFingerprint({ agrifarmId: AGRIFARM, exported: false, body: phytoRequest() }),
      status: 201,
      body: res.body,
      etag: '"1"',
    });
    expect(res.etag).toBe('"1"');
    store.states = [
      {
        guards: new Map(),
        idempotency: storedAnswerOf({ requestHash: idem!.requestHash, status: 201, body: res.body, etag: '"1"' }),
      },
    ];
    store.reads = 0;
    const again = await registerApplication(deps(store), input({}, { key: 'k-1' }));
    expect(again).toEqual(res);
    expect(store.inserts).toHaveLength(1);
  });

  it('with an Idempotency-Key used for another request: 422 IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const store = new FakeStore();
    store.states = [
      { guards: new Map(), idempotency: storedAnswerOf({ requestHash: 'something else', status: 201, body: '[]' }) },
    ];
    const e = await problem(registerApplication(deps(store), input({}, { key: 'k-1' })));
    expect(statusOf(e.violations)).toBe(422);
    expect(e.violations).toEqual([
      { code: 'IDEMPOTENCY_KEY_REUSED', path: 'header.Idempotency-Key', message: expect.any(String) },
    ]);
    expect(store.inserts).toHaveLength(0);
  });

  it('fingerprints the request independently of key order, but not of its values, farm or exported flag', () => {
    const body = phytoRequest();
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(body).reverse())));
    const fp = (b: unknown, agrifarmId = AGRIFARM, exported = false) =>
      requestFingerprint({ agrifarmId, exported, body: b });
    expect(fp(reordered)).toBe(fp(body));
    expect(fp({ ...body, dose: 0.51 })).not.toBe(fp(body));
    expect(fp(body, 'urn:ngsi-ld:AgriFarm:1')).not.toBe(fp(body));
    expect(fp(body, AGRIFARM, true)).not.toBe(fp(body));
    expect(idempotencyHash('a', 'k')).not.toBe(idempotencyHash('b', 'k'));
  });
});
