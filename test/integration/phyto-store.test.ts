import { Client } from '../../shared/clients/client-store';
import { DomainError } from '../../shared/domain/errors';
import { statusOf } from '../../shared/http/error-status';
import { buildRecord } from '../../shared/phyto/record-view';
import { treatmentFromWire } from '../../shared/phyto/wire-mapper';
import { Guard } from '../../shared/records/record-rows';
import { WriteConflict } from '../../shared/records/record-store';
import { PhytoStore, PhytoChange } from '../../shared/phyto/phyto-store';
import { guardRowKey, holdingPartition, idempotencyRowKey, pointerRowKey } from '../../shared/records/record-keys';
import { creationChange, registerRecord } from '../../shared/records/register-record';
import { amendRecord } from '../../shared/records/amend-record';
import { phytoKind } from '../../shared/phyto/phyto-kind';
import { mapRecord, treatmentCue } from '../../shared/phyto/cue-block';
import { blockKeysOf } from '../../shared/siex/cue-mapping';
import { recordBlocks } from '../../shared/records/cue-blocks';
import { siexBlocksOf } from '../../shared/records/export-state';
import { readRecordAnswer } from '../../shared/records/read-record';
import { madrid } from '../helpers/phyto-fixtures';
import { sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import {
  asReply,
  body,
  farmOf,
  inProcessExport,
  inProcessServices,
  P,
  partitionRows,
  phytoFarm,
  recordCount,
  registerDeps,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { testTables } from '../helpers/storage';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Registration against real Table Storage (Azurite), in process with an injected clock (15-05-2026 12:00 Madrid):
 * the one-transaction write (record, id pointer, history guards, idempotency entry), Idempotency-Key semantics,
 * integer ids that never repeat, and concurrent registrations that must not lose an update to the history.
 */
const NOW = madrid('15-05-2026 12:00:00');
const now = () => NOW;
const reas = { atomic: uniqueRea(), idem: uniqueRea(), ids: uniqueRea(), race: uniqueRea(), old: uniqueRea() };
const clientA = testClient('phyto-store-a', Object.values(reas));
const clientB = testClient('phyto-store-b', [reas.idem]);
const svc = inProcessServices();
const farms: Record<string, Awaited<ReturnType<typeof farmOf>>> = {};

/** The gateway's view of a client, as authentication resolves it. */
async function asClient(c: typeof clientA): Promise<Client> {
  return (await svc.gate.findClient(c.sidKey))!;
}

async function registerAs(c: typeof clientA, rea: string, b = body(), key: string | null = null) {
  return asReply(
    await registerRecord(registerDeps(svc, now), {
      client: await asClient(c),
      agrifarmId: farms[rea].agrifarmId,
      exported: false,
      body: b,
      idempotencyKey: key,
    }),
  );
}

async function outcome(
  p: Promise<{ status: number; body: string }>,
): Promise<{ status: number; codes: string[]; body?: string }> {
  try {
    const r = await p;
    return { status: r.status, codes: [], body: r.body };
  } catch (e) {
    if (e instanceof DomainError) return { status: statusOf(e.violations), codes: e.violations.map((v) => v.code) };
    throw e;
  }
}

beforeAll(async () => {
  await seedPhyto({
    // the old-rows farm is one SIEX can take (REA code, DGCs), so its records map to CUE blocks
    farms: Object.values(reas).map((r) => (r === reas.old ? sendableFarm(r, 6, NOW.year) : phytoFarm(r, 6, NOW.year))),
    clients: [clientA, clientB],
  });
  for (const rea of Object.values(reas)) farms[rea] = await farmOf(rea, NOW.year);
});

describe('PhytoStore.insert: one entity-group transaction', () => {
  it('a stale guard ETag is a WriteConflict and writes nothing at all (record, pointer, other guards, idempotency)', async () => {
    const f = farms[reas.atomic];
    const first = await registerAs(
      clientA,
      reas.atomic,
      body({ idcp: [f.vine[0]], dateApplication: '14-05-2026 10:00:00' }),
    );
    expect(first.status).toBe(201);
    const before = await partitionRows(f.key);
    const guard = before.get(guardRowKey(P.unlimited, f.sigpac(f.vine[0])))!;
    expect(JSON.parse(String(guard.days))).toEqual({ '2026-05-14': 1 });

    const store = new PhytoStore(testTables());
    const ref = await svc.reference.get();
    const farm = (await svc.farms.index(f.farmId))!;
    const req = body({ idcp: [f.vine[1], f.vine[0]], dateApplication: '14-05-2026 11:00:00' });
    const entries = req.idcp.map((i) => farm.byIdcp.get(Number(i))!);
    const id = await svc.kinds.of(phytoEntry).ids.take();
    const record = buildRecord(
      id,
      treatmentFromWire(req),
      ref.products.get(P.unlimited),
      { entries, uses: ref.products.get(P.unlimited)!.uses },
      farm,
      false,
      NOW,
    );
    const change = (guards: Guard[]): PhytoChange =>
      creationChange(phytoKind, {
        id,
        record,
        request: treatmentFromWire(req),
        blockIds: null,
        farmId: f.farmId,
        appliedAt: madrid(req.dateApplication),
        now: NOW,
        client: clientA.id,
        guards,
        idempotency: { hash: 'atomic-test-key', requestHash: 'h', outcome: 'created', answerJson: '[]' },
      });
    const guards = [
      { rowKey: guardRowKey(P.unlimited, f.sigpac(f.vine[1])), doc: { '2026-05-14': 1 } },
      // an ETag from before another registration updated the row
      {
        rowKey: guardRowKey(P.unlimited, f.sigpac(f.vine[0])),
        doc: { '2026-05-14': 2 },
        etag: `W/"datetime'2020-01-01T00%3A00%3A00.0000000Z'"`,
      },
    ];
    await expect(store.commit(f.key, change(guards))).rejects.toBeInstanceOf(WriteConflict);
    // a guard created meanwhile (insert with no ETag where a row now exists) is a conflict too
    await expect(store.commit(f.key, change([guards[0], { ...guards[1], etag: undefined }]))).rejects.toBeInstanceOf(
      WriteConflict,
    );

    const after = await partitionRows(f.key);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(after.get(guard.rowKey as string)!.days).toBe(guard.days);
    expect(after.has(idempotencyRowKey('atomic-test-key'))).toBe(false);

    // and with the right ETag the same write goes through whole
    await store.commit(f.key, change([guards[0], { ...guards[1], etag: String(guard.etag) }]));
    const written = await partitionRows(f.key);
    expect(written.size).toBe(before.size + 5); // record, pointer, new guard, version, idempotency entry
    expect(await recordCount(f.key)).toBe(2);
  });
});

describe('Idempotency-Key', () => {
  it('same key and same body: the first response again, nothing new; the JSON key order does not matter', async () => {
    const f = farms[reas.idem];
    const b = body({ idcp: [f.vine[0]], dateApplication: '13-05-2026 10:00:00' });
    const first = await registerAs(clientA, reas.idem, b, 'retry-1');
    const count = await recordCount(f.key);
    const rows = (await partitionRows(f.key)).size;
    const again = await registerAs(
      clientA,
      reas.idem,
      JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(b).reverse()))),
      'retry-1',
    );
    expect(again).toEqual(first);
    expect(await recordCount(f.key)).toBe(count);
    expect((await partitionRows(f.key)).size).toBe(rows);
  });

  it('same key, different body: 422 IDEMPOTENCY_KEY_REUSED, and the key still answers its first request', async () => {
    const f = farms[reas.idem];
    const b = body({ idcp: [f.vine[1]], dateApplication: '13-05-2026 10:00:00' });
    const first = await registerAs(clientA, reas.idem, b, 'retry-2');
    const count = await recordCount(f.key);
    const reused = await outcome(registerAs(clientA, reas.idem, { ...b, dose: 0.6 }, 'retry-2'));
    expect(reused).toEqual({ status: 422, codes: ['IDEMPOTENCY_KEY_REUSED'] });
    expect(await recordCount(f.key)).toBe(count);
    expect(await registerAs(clientA, reas.idem, b, 'retry-2')).toEqual(first);
  });

  it('keys are per client: another client of the same farm using the same key gets its own record', async () => {
    const f = farms[reas.idem];
    const b = body({ idcp: [f.vine[2]], dateApplication: '13-05-2026 10:00:00' });
    const a = await registerAs(clientA, reas.idem, b, 'shared-key');
    const bb = await registerAs(clientB, reas.idem, b, 'shared-key');
    expect(a.status).toBe(201);
    expect(bb.status).toBe(201);
    expect(JSON.parse(bb.body)[0].id).not.toBe(JSON.parse(a.body)[0].id);
  });

  it('a refused request is not remembered: fixing it under the same key stores it', async () => {
    const f = farms[reas.idem];
    const bad = body({ idcp: [f.vine[3]], dose: 5, dateApplication: '13-05-2026 10:00:00' });
    expect((await outcome(registerAs(clientA, reas.idem, bad, 'fix-me'))).codes).toEqual(['DOSE_ABOVE_MAX']);
    expect((await registerAs(clientA, reas.idem, { ...bad, dose: 0.6 }, 'fix-me')).status).toBe(201);
  });

  it('two concurrent identical requests with the same key create ONE record, and both get its response', async () => {
    const f = farms[reas.idem];
    const b = body({ idcp: [f.vine[4], f.vine[5]], dateApplication: '12-05-2026 10:00:00' });
    const count = await recordCount(f.key);
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => registerAs(clientA, reas.idem, b, 'concurrent-key')),
    );
    expect(await recordCount(f.key)).toBe(count + 1);
    expect(new Set(replies.map((r) => r.body)).size).toBe(1);
    expect(replies.every((r) => r.status === 201)).toBe(true);
  });
});

describe('record ids', () => {
  it('are positive integers inside the URN, distinct across processes, never reused after a conflict', async () => {
    const f = farms[reas.ids];
    const other = inProcessServices(); // a second process: its own id block
    const sends = Array.from({ length: 16 }, async (_, i) =>
      asReply(
        await registerRecord(registerDeps(i % 2 ? other : svc, now), {
          client: {
            id: clientA.id,
            name: '',
            email: '',
            apiKeyHash: '',
            expires: '',
            farms: [reas.ids],
            apimSubscriptionId: 'sub-1',
            webhookUrl: '',
          },
          agrifarmId: f.agrifarmId,
          exported: false,
          // the same location every time: the history guard makes most of these conflict and retry (each conflict is
          // another request's successful write, so 16 requests need at most 16 of the service's 20 attempts)
          body: body({ idcp: [f.vine[0]], dateApplication: `1${i % 5}-05-2026 0${i % 10}:00:00` }),
          idempotencyKey: null,
        }),
      ),
    );
    const ids = (await Promise.all(sends)).map((r) => JSON.parse(r.body)[0].id as string);
    expect(ids.every((id) => /^urn:ngsi-ld:AgriPhytosanitary:[1-9]\d{0,9}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(16);
    const rows = await partitionRows(f.key);
    const pointers = [...rows.keys()].filter((k) => k.startsWith('i~')).map((k) => Number(k.slice(2)));
    expect(pointers.sort((a, b) => a - b)).toEqual(ids.map((id) => Number(id.split(':').pop())).sort((a, b) => a - b));
    // every one of the 16 is counted on its day, none twice and none lost to a conflicting write
    const guard = rows.get(guardRowKey(P.unlimited, f.sigpac(f.vine[0])))!;
    expect(JSON.parse(String(guard.days))).toEqual({
      '2026-05-10': 4,
      '2026-05-11': 3,
      '2026-05-12': 3,
      '2026-05-13': 3,
      '2026-05-14': 3,
    });
  });
});

describe('concurrent registrations on one location (no lost update)', () => {
  it('with a 7-day minimum interval: of 8 at once within a week, exactly one is stored, the others get MIN_INTERVAL', async () => {
    const f = farms[reas.race];
    const b = (i: number) =>
      body({
        subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: P.microthiol },
        dose: 0.5,
        idcp: [f.vine[0]],
        dateApplication: `${10 + (i % 5)}-05-2026 1${i}:00:00`,
      });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => outcome(registerAs(clientA, reas.race, b(i)))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 201)).toEqual(Array(7).fill({ status: 422, codes: ['MIN_INTERVAL'] }));
    const guard = (await partitionRows(f.key)).get(guardRowKey(P.microthiol, f.sigpac(f.vine[0])))!;
    expect(Object.values(JSON.parse(String(guard.days)))).toEqual([1]);
  });

  it('with at most 2 per campaign: of 6 at once, exactly two are stored, the others get MAX_APPLICATIONS', async () => {
    const f = farms[reas.race];
    const b = (i: number) =>
      body({
        subtype: { type: 'TypePhytosanitary', name: 'POLTIGLIA', code: P.twice },
        idcp: [f.olive],
        dateApplication: `14-05-2026 0${i}:00:00`,
      });
    const before = await recordCount(f.key);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => outcome(registerAs(clientA, reas.race, b(i)))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status !== 201)).toEqual(
      Array(4).fill({ status: 422, codes: ['MAX_APPLICATIONS'] }),
    );
    expect(await recordCount(f.key)).toBe(before + 2);
  });

  it('on overlapping location sets: whichever are stored, no location gets two applications within the interval', async () => {
    const f = farms[reas.race];
    const sets = [[f.vine[1], f.vine[2]], [f.vine[2], f.vine[3]], [f.vine[3], f.vine[1]], [f.vine[2]]];
    const b = (idcp: string[], i: number) =>
      body({
        subtype: { type: 'TypePhytosanitary', name: 'FAMOLINS', code: P.famolins },
        dose: 25,
        measure: { type: 'Measure', name: 'kg/ha', symbol: 'kg/ha', code: 17 },
        idcp,
        dateApplication: `13-05-2026 1${i}:00:00`,
      });
    const results = await Promise.all(sets.map((s, i) => outcome(registerAs(clientA, reas.race, b(s, i)))));
    const stored = results.filter((r) => r.status === 201);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    // whichever were stored, no location got two applications of the product within its 10 days
    const rows = await partitionRows(f.key);
    for (const idcp of [f.vine[1], f.vine[2], f.vine[3]]) {
      const guard = rows.get(guardRowKey(P.famolins, f.sigpac(idcp)));
      const days = guard ? (JSON.parse(String(guard.days)) as Record<string, number>) : {};
      expect(Object.values(days).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
    }
    expect(
      results
        .filter((r) => r.status !== 201)
        .every((r) => r.status === 422 && r.codes.every((c) => c === 'MIN_INTERVAL')),
    ).toBe(true);
  });
});

describe("a pointer row written before the export state's columns", () => {
  it('reads as it meant: claims, blocks and unknown outcomes from the columns there were', async () => {
    const f = farms[reas.old];
    const ids: number[] = [];
    for (const vine of f.vine.slice(0, 2)) {
      const res = await outcome(
        registerAs(clientA, reas.old, body({ idcp: [vine], dateApplication: '14-05-2026 10:00:00' })),
      );
      expect(res.codes).toEqual([]);
      ids.push(Number(String(JSON.parse(res.body!)[0].id).split(':').pop()));
    }
    const rows = await partitionRows(f.key);
    const table = await testTables().farmTable('phyto', f.key);
    // Rewritten as older code wrote them: exported by a job before everExported, and claimed with its outcome unknown.
    const old = (id: number, columns: Record<string, unknown>) => {
      const { farmId, recordRowKey, version, state, created } = rows.get(pointerRowKey(id))!;
      const row = { partitionKey: holdingPartition(f.key), rowKey: pointerRowKey(id), farmId, recordRowKey };
      return table.upsertEntity({ ...row, version, state, created, ...columns }, 'Replace');
    };
    await old(ids[0], { exported: '1', siexBlocks: '[5]', jobId: 7, claimedAt: 1_000, claimedBy: 'c' });
    await old(ids[1], { exported: '0', jobId: 8, claimedAt: 2_000, claimedBy: 'c', outcomeUnknownJob: 8 });
    const pointers = await new PhytoStore(testTables()).readPointers(f.key, ids);
    expect(ids.map((id) => pointers.get(id)!.exportState)).toEqual([
      { kind: 'exported', claim: { jobId: 7, at: 1_000, by: 'c' }, siexBlocks: [5] },
      { kind: 'outcome-unknown', job: 8, known: { kind: 'unsent', claim: { jobId: 8, at: 2_000, by: 'c' } } },
    ]);
  });
});

describe('IdAjena of rows written before they were kept per crop and variety (issue 23 item 2)', () => {
  const amendDeps = () => ({
    kind: phytoKind,
    farms: svc.farms,
    reference: svc.reference,
    store: svc.kinds.of(phytoEntry).store,
    ids: svc.kinds.of(phytoEntry).ids,
    heldByJob: async () => null,
    settings: { MAX_BACKDATE_DAYS: 7 },
    now,
  });

  /** A record on vine and olive, rewritten as older code wrote it: no block ids, SIEX holding `siexBlocks`. */
  async function oldRecord(day: string, siexBlocks: (id: number) => number[]): Promise<number> {
    const f = farms[reas.old];
    const res = await outcome(
      registerAs(
        clientA,
        reas.old,
        body({ idcp: [f.vine[2], f.olive], dateApplication: `${day} 10:00:00`, ...SIEX_FIELDS }),
      ),
    );
    expect(res.codes).toEqual([]);
    const id = Number(String(JSON.parse(res.body!)[0].id).split(':').pop());
    const table = await testTables().farmTable('phyto', f.key);
    const rows = await partitionRows(f.key);
    const pointer = rows.get(pointerRowKey(id))!;
    const recordRow = rows.get(String(pointer.recordRowKey))!;
    const held = siexBlocks(id);
    for (const row of [
      {
        ...pointer,
        exported: held.length > 0 ? '1' : '0',
        everExported: held.length > 0 ? '1' : '0',
        siexBlocks: JSON.stringify(held),
      },
      recordRow,
    ]) {
      // etag and timestamp are storage's, not columns to write back
      const { blockIds, etag: _etag, timestamp: _timestamp, ...old } = row;
      expect(blockIds).toBeDefined();
      await table.upsertEntity(
        { ...old, partitionKey: holdingPartition(f.key), rowKey: String(row.rowKey) },
        'Replace',
      );
    }
    return id;
  }

  const amend = async (id: number, patch: Record<string, unknown>) =>
    asReply(
      await amendRecord(amendDeps(), {
        client: await asClient(clientA),
        agrifarmId: farms[reas.old].agrifarmId,
        recordId: id,
        ifMatch: null,
        idempotencyKey: null,
        patch,
      }),
    );

  it('an exported one is sent under the ids SIEX holds, and an amendment that reorders its crops keeps them', async () => {
    const f = farms[reas.old];
    const id = await oldRecord('13-05-2026', (n) => [n, 10_000_000_000 + n]);
    const store = new PhytoStore(testTables());
    const pointer = (await store.readPointers(f.key, [id])).get(id)!;
    expect(pointer.blockIds).toBeNull();
    const stored = (await store.readRecords(f.key, [pointer.recordRowKey])).get(pointer.recordRowKey)!;
    expect(stored.blockIds).toBeNull();
    const mapped = mapRecord(stored.record, id, (await svc.farms.index(f.farmId))!, stored.blockIds);
    expect(mapped.ok && mapped.blocks.map((b) => b.IdAjenaTratamFito)).toEqual([id, 10_000_000_000 + id]);

    expect((await amend(id, { idcp: [f.olive, f.vine[2]] })).status).toBe(200);
    const after = (await store.readPointers(f.key, [id])).get(id)!;
    const olive = Object.values(after.blockIds!).find((n) => n !== id)!;
    expect(Object.values(after.blockIds!)).toEqual([olive, id]);
    // the olive's 11-digit id is not kept: it gets a 10-digit one, and SIEX is sent Borrar under the old one
    expect(olive).toBeLessThanOrEqual(9_999_999_999);
    const again = (await store.readRecords(f.key, [after.recordRowKey])).get(after.recordRowKey)!;
    const sent = recordBlocks(
      treatmentCue,
      { record: again.record, recordId: id, blockIds: again.blockIds, held: siexBlocksOf(after.exportState) },
      (await svc.farms.index(f.farmId))!,
      false,
    );
    expect(sent.ok && sent.blocks.map((b) => [b.IdAjenaTratamFito, b.Borrar ?? false])).toEqual([
      [olive, false],
      [id, false],
      [10_000_000_000 + id, true],
    ]);
  });

  it('one never sent is exported with ids of at most 10 digits, written to its rows when the export takes it', async () => {
    const f = farms[reas.old];
    const id = await oldRecord('11-05-2026', () => []);
    const index = (await svc.farms.index(f.farmId))!;
    await inProcessExport(svc, await asClient(clientA), index, f.agrifarmId, [id]);
    const store = new PhytoStore(testTables());
    const pointer = (await store.readPointers(f.key, [id])).get(id)!;
    const stored = (await store.readRecords(f.key, [pointer.recordRowKey])).get(pointer.recordRowKey)!;
    expect(stored.blockIds).toEqual(pointer.blockIds);
    const ids = Object.values(pointer.blockIds!);
    expect(ids[0]).toBe(id);
    expect(ids[1]).toBeLessThanOrEqual(9_999_999_999);
    const mapped = mapRecord(stored.record, id, index, stored.blockIds);
    expect(mapped.ok && mapped.blocks.map((b) => b.IdAjenaTratamFito)).toEqual(ids);
  });

  it('a record whose crops lack ids (the farm data changed) says so, and an amendment with no change repairs it', async () => {
    const f = farms[reas.old];
    const id = await oldRecord('10-05-2026', () => []);
    const index = (await svc.farms.index(f.farmId))!;
    const store = new PhytoStore(testTables());
    const pointer = (await store.readPointers(f.key, [id])).get(id)!;
    // stored with an id for the vine alone: the olive came with a change of the farm data
    const vineOnly = JSON.stringify({ [blockKeysOf([f.vine[2]], index)[0]]: id });
    const table = await testTables().farmTable('phyto', f.key);
    for (const rowKey of [pointerRowKey(id), pointer.recordRowKey])
      await table.updateEntity({ partitionKey: holdingPartition(f.key), rowKey, blockIds: vineOnly }, 'Merge');
    const answer = async () => JSON.parse(asReply(await readRecordAnswer(phytoKind, store, index, id)).body)[0];
    expect((await answer()).exportable).toBe(false);

    const res = await amend(id, {});
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)[0].exportable).toBe(true);
    const after = (await store.readPointers(f.key, [id])).get(id)!;
    expect(after.version).toBe(pointer.version + 1);
    expect(Object.keys(after.blockIds!)).toHaveLength(2);
    expect((await answer()).exportable).toBe(true);
  });

  it('one never sent keeps its own id for its first crop, and the olive gets a fresh one of at most 10 digits', async () => {
    const f = farms[reas.old];
    const id = await oldRecord('12-05-2026', () => []);
    expect((await amend(id, { dose: 0.62 })).status).toBe(200);
    const after = (await new PhytoStore(testTables()).readPointers(f.key, [id])).get(id)!;
    const ids = Object.values(after.blockIds!);
    expect(ids[0]).toBe(id);
    expect(ids[1]).toBeLessThanOrEqual(9_999_999_999);
    expect(ids[1]).not.toBe(id);
  });
});
