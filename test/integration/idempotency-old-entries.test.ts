import { createUseCases } from '../../shared/app/use-cases';
import { Client } from '../../shared/clients/client-store';
import { TABLES } from '../../shared/store/tables';
import { idempotencyHash, requestFingerprint } from '../../shared/idempotency/idempotency';
import { phytoKind } from '../../shared/phyto/phyto-kind';
import { amendRecord } from '../../shared/records/amend-record';
import { requestDeletion } from '../../shared/records/delete-record';
import { holdingPartition, idempotencyRowKey } from '../../shared/records/record-keys';
import { registerRecord } from '../../shared/records/register-record';
import { toDocProps } from '../../shared/store/doc-entity';
import { madrid } from '../helpers/phyto-fixtures';
import {
  asExportReply,
  asReply,
  body,
  farmOf,
  inProcessServices,
  partitionRows,
  recordCount,
  registerDeps,
  seedPhyto,
  testClient,
  uniqueRea,
} from '../helpers/phyto-stack';
import { testTables } from '../helpers/storage';
import { sendableFarm, SIEX_FIELDS } from '../helpers/export-stack';
import { phytoEntry } from '../../shared/phyto/kind-entry';

/**
 * Idempotency entries are kept for good, so the ones written before the records core (columns `status`, `etagHeader`
 * and the body as a document, as the HTTP answer was) must still replay byte for byte, each with its status: a client
 * retrying after an upgrade gets the answer it missed, not a second record or a 500. The answers written here are
 * deliberately not what the services would render now, so a replay that re-renders instead of replaying fails.
 */
const NOW = madrid('15-05-2026 12:00:00');
const rea = uniqueRea();
const client = testClient('old-idem-entries', [rea]);
const svc = inProcessServices();
let me: Client;
let f: Awaited<ReturnType<typeof farmOf>>;

beforeAll(async () => {
  // A farm SIEX can take (REA code, DGCs): the export below must have a record it would send.
  await seedPhyto({ farms: [sendableFarm(rea, 4, NOW.year)], clients: [client] });
  f = await farmOf(rea, NOW.year);
  me = (await svc.gate.findClient(client.sidKey))!;
});

/** An entry as the code before the records core wrote it (shared/records/record-store.ts at c5f17f9). */
async function writeOldEntry(key: string, request: unknown, status: number, text: string, etag?: string) {
  const table = await testTables().farmTable('phyto', f.key);
  await table.createEntity({
    partitionKey: holdingPartition(f.key),
    rowKey: idempotencyRowKey(idempotencyHash(me.id, key)),
    requestHash: requestFingerprint(request),
    status,
    ...(etag ? { etagHeader: etag } : {}),
    ...toDocProps(text),
  });
}

const register = async (key: string, b = body({ idcp: [f.vine[0]], dateApplication: '14-05-2026 10:00:00' })) =>
  asReply(
    await registerRecord(
      registerDeps(svc, () => NOW),
      {
        client: me,
        agrifarmId: f.agrifarmId,
        exported: false,
        body: b,
        idempotencyKey: key,
      },
    ),
  );

const change = (recordId: number, key: string) => ({
  client: me,
  agrifarmId: f.agrifarmId,
  recordId,
  ifMatch: null,
  idempotencyKey: key,
});

it('a registration, an amendment, a deletion and a deletion job answered before the records core replay as they were', async () => {
  const b = body({ idcp: [f.vine[1]] });
  await writeOldEntry('old-201', { agrifarmId: f.agrifarmId, exported: false, body: b }, 201, '[{"old":201}]', '"1"');
  const patch = { dose: 0.61 };
  const amendFingerprint = { operation: 'amend', agrifarmId: f.agrifarmId, id: 7, ifMatch: null, patch };
  await writeOldEntry('old-200', amendFingerprint, 200, '[{"old":200}]', '"4"');
  const deleteFingerprint = (id: number) => ({ operation: 'delete', agrifarmId: f.agrifarmId, id, ifMatch: null });
  await writeOldEntry('old-204', deleteFingerprint(8), 204, '');
  await writeOldEntry('old-202', deleteFingerprint(9), 202, '{"id":12,"status":"Iniciando"}');
  const records = await recordCount(f.key);

  expect(await register('old-201', b)).toEqual({ status: 201, body: '[{"old":201}]', etag: '"1"' });
  const amendDeps = {
    ...registerDeps(svc, () => NOW),
    store: svc.kinds.of(phytoEntry).store,
    heldByJob: async () => null,
    sleep: async () => undefined,
  };
  expect(asReply(await amendRecord(amendDeps, { ...change(7, 'old-200'), patch }))).toEqual({
    status: 200,
    body: '[{"old":200}]',
    etag: '"4"',
  });
  const deleteDeps = {
    kind: phytoKind,
    store: svc.kinds.of(phytoEntry).store,
    reference: svc.reference,
    heldByJob: async () => null,
  };
  const deleted = await requestDeletion(deleteDeps, (await svc.farms.index(f.farmId))!, change(8, 'old-204'));
  expect('done' in deleted && asReply(deleted.done)).toEqual({ status: 204, body: '' });
  const started = await requestDeletion(deleteDeps, (await svc.farms.index(f.farmId))!, change(9, 'old-202'));
  expect('done' in started && asReply(started.done)).toEqual({ status: 202, body: '{"id":12,"status":"Iniciando"}' });
  expect(await recordCount(f.key)).toBe(records);
});

it('a new entry is written in those same columns, so a gateway rolled back still replays it', async () => {
  const first = await register('new-201');
  const row = (await partitionRows(f.key)).get(idempotencyRowKey(idempotencyHash(me.id, 'new-201')))!;
  expect({ status: row.status, etagHeader: row.etagHeader }).toEqual({ status: 201, etagHeader: '"1"' });
  expect(row).toMatchObject(toDocProps(first.body));
  expect(await register('new-201')).toEqual(first);
});

describe("an export's Idempotency-Key", () => {
  const useCases = () => createUseCases({ ...svc, enqueueExport: async () => undefined });
  const exportUnder = async (key: string, ids: { id: string }[], pending = false) =>
    asExportReply(
      await useCases().exportRecords({ client: me, agrifarmId: f.agrifarmId, body: ids, pending, idempotencyKey: key }),
    );
  /** A done key as the export wrote it before it returned domain results (shared/export/export-keys.ts at 622cce0). */
  async function writeOldKey(key: string, request: unknown, text: string) {
    const table = await testTables().table(TABLES.jobs);
    await table.createEntity({
      partitionKey: `k~${f.farmId}`,
      rowKey: idempotencyHash(me.id, key),
      state: 'done',
      requestHash: requestFingerprint(request),
      status: 202,
      body: text,
    });
  }

  // Neither request, run, could answer these texts (there is no record 424242; pending=1 counts records): a replay does.
  it('answered before the export returned domain results replays as it was, pending=1 too', async () => {
    const ids = [{ id: 'urn:ngsi-ld:AgriPhytosanitary:424242' }];
    await writeOldKey(
      'old-export',
      { query: { agrifarmId: f.agrifarmId }, body: ids },
      '{"id":41,"status":"Iniciando"}',
    );
    await writeOldKey('old-pending', { query: { agrifarmId: f.agrifarmId, pending: 1 }, body: [] }, '{"id":42}');

    expect(await exportUnder('old-export', ids)).toEqual({ status: 202, body: '{"id":41,"status":"Iniciando"}' });
    expect(await exportUnder('old-pending', [], true)).toEqual({ status: 202, body: '{"id":42}' });
  });

  it('is written in those same columns, so a gateway rolled back still replays it', async () => {
    const complete = body({ idcp: [f.vine[0]], dateApplication: '14-05-2026 10:00:00', ...SIEX_FIELDS });
    const [record] = JSON.parse((await register('to-export', complete)).body) as { id: string }[];
    const first = await exportUnder('new-export', [{ id: record.id }]);
    expect(first.status).toBe(202);
    const row = await (
      await testTables().table(TABLES.jobs)
    ).getEntity(`k~${f.farmId}`, idempotencyHash(me.id, 'new-export'));
    expect({ state: row.state, status: row.status, body: row.body }).toEqual({
      state: 'done',
      status: 202,
      body: first.body,
    });
    expect(await exportUnder('new-export', [{ id: record.id }])).toEqual(first);
  });
});
