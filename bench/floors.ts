import { DateTime } from 'luxon';
import { CATALOGUES } from '../shared/app/siex-catalogues';
import { DIRECTORY_CHECK_MS } from '../shared/app/services';
import { factSource } from '../shared/app/fact-source';
import { KindStores } from '../shared/app/kind-parts';
import { ReferenceData, referenceCache } from '../shared/catalog/reference-data';
import { formatDateTime, ZONE } from '../shared/domain/dates';
import { deleteAcceptedBySiex } from '../shared/records/delete-record';
import { FarmIndex } from '../shared/farms/farm-index';
import { FarmStore } from '../shared/farms/farm-store';
import { KindEntry } from '../shared/records/kind-entry';
import { mergePatch } from '../shared/records/record-history';
import { RecordKind } from '../shared/records/record-kind';
import { RecordView } from '../shared/records/record-rows';
import { RecordStore } from '../shared/records/record-store';
import { creationChange, guardsToWrite, historyDocs } from '../shared/records/register-record';
import { Counters, IdBlocks } from '../shared/store/counters';
import { TABLES, TableStore } from '../shared/store/tables';
import { readCatalogVersion, readDirectoryVersion } from '../shared/catalog/catalog-version';
import { ClientStore } from '../shared/clients/client-store';
import { requestKey } from '../shared/idempotency/idempotency';
import { OperationKeyStore } from '../shared/idempotency/key-operations';
import { randomUUID } from 'node:crypto';
import { exportKinds } from '../shared/app/export-registry';
import { LEGACY_JOB_TYPE } from '../shared/app/record-kinds';
import { Client } from '../shared/clients/client-store';
import { DomainError } from '../shared/domain/errors';
import { ExportDeps, exportRecords } from '../shared/export/export-service';
import { ExportKeyStore } from '../shared/export/export-keys';
import { JobStore } from '../shared/export/job-store';
import { WatchStore } from '../shared/export/job-watch';
import { startAnswer } from '../shared/http/job-answers';
import { QueueSender } from '../shared/store/queues';

/**
 * The storage floors of a kind's registration, amendment and deletion, for any kind (issue 37 item 3): the reads and the one
 * transaction the records core makes (shared/records/register-record.ts), done straight against the same storage,
 * without HTTP or the id counter (the pipeline's own storage before them is `frontFloor`'s). The kind's rules run between the reads and the write (the
 * record's view needs what they resolve), but are not timed: each floor returns the milliseconds of its storage work.
 */
export interface KindFloors {
  register(farm: FarmIndex, id: number, body: unknown): Promise<number>;
  /** `patch`, a merge patch of the registration body, on record `id` of the farm (registered by `register`). */
  amend(farm: FarmIndex, id: number, patch: unknown): Promise<number>;
  /** The deletion of record `id`, never sent to SIEX. */
  remove(farm: FarmIndex, id: number): Promise<number>;
  /** A registration batch's own Idempotency-Key claimed before its items (one insert, shared/records/batch-keys.ts). */
  claimBatch(farm: FarmIndex): Promise<number>;
}

/**
 * The storage the gateway does around a write's own, as the gateway does it at the rate it is called: the directory's
 * version read when the process last read it more than DIRECTORY_CHECK_MS ago (shared/app/services.ts); the caller's
 * client row read when the gateway's copy of it has expired (REFERENCE_CACHE_SECONDS, 60 by default); the
 * Idempotency-Key bound to its operation (one insert on every write: the peak's ERPs send keys, as the client package
 * does); then the farm's rows read when the gateway's copy of the farm has expired, beside the reference data's version
 * read when the process last read it a period ago (the gateway reads that version beside the path's first read: one
 * round trip of the same depth). `shadowed` is the gateway farm and client the call went to, whose copies' ages the
 * floor follows; `farm` the floor farm it reads.
 */
export function frontFloor(tables: TableStore, cacheMs = 60_000) {
  const keys = new OperationKeyStore(tables);
  const farms = new FarmStore(tables, 0);
  const clients = new ClientStore(tables);
  // When the floor last read each thing the gateway keeps a copy of: that copy's age decides the read, as it does.
  const lastRead = new Map<string, number>();
  const due = (what: string, periodMs: number, t: number) => {
    if (t - (lastRead.get(what) ?? -Infinity) <= periodMs) return false;
    lastRead.set(what, t);
    return true;
  };
  return async (shadowed: { rea: string; sid: string }, farm: FarmIndex): Promise<number> => {
    const t = performance.now();
    if (due('directory', DIRECTORY_CHECK_MS, t)) await readDirectoryVersion(await tables.table(TABLES.catalog));
    if (due(`client ${shadowed.sid}`, cacheMs, t)) await clients.findBySidKey(shadowed.sid);
    await keys.within('bench-floor', randomUUID(), 'floor', () => Promise.resolve());
    await Promise.all([
      due(`farm ${shadowed.rea}`, cacheMs, t) && farms.index(farm.meta.farmId),
      due('catalogue version', cacheMs, t) && tables.table(TABLES.catalog).then(readCatalogVersion),
    ]);
    return performance.now() - t;
  };
}

/** The stores, reference data and fact source every kind's floors share. */
/**
 * `keyed`: the calls the floors stand beside carry an Idempotency-Key (the peak's do, the request rows' do not), so a
 * registration's and an amendment's entry is read with the rows they read and written in their transaction, as the
 * core does.
 */
export async function floorsFor(tables: TableStore, { keyed = false } = {}): Promise<(entry: KindEntry) => KindFloors> {
  const kinds = new KindStores({ tables, counters: new Counters(tables), maxBackdateDays: 7 });
  const facts = factSource({ farms: new FarmStore(tables, 0), kinds });
  const reference = await referenceCache(tables, 3600, CATALOGUES).get();
  return (entry) => {
    const kind = entry.load.kind();
    const { store, batchKeys } = kinds.of(entry);
    return {
      claimBatch: (farm) => elapsed(() => batchKeys.claim(farm.meta, randomUUID(), 'bench-floor')),
      register: (farm, id, body) => registerFloor({ kind, store, reference, facts, keyed }, farm, id, body),
      amend: (farm, id, patch) => amendFloor({ kind, store, reference, keyed }, farm, id, patch),
      // The core's own deletion of records SIEX never held (shared/records/delete-record.ts): the pointer and its
      // request read, the history rows read, one transaction; what a DELETE does after checking the record's jobs.
      remove: (farm, id) =>
        elapsed(() =>
          deleteAcceptedBySiex({ kind, store, reference: { get: () => Promise.resolve(reference) } }, farm, [id], {
            client: 'bench',
            at: formatDateTime(DateTime.now().setZone(ZONE)),
            jobId: 0,
          }),
        ),
    };
  };
}

interface FloorParts {
  kind: RecordKind<unknown, RecordView>;
  store: RecordStore<unknown, RecordView>;
  reference: ReferenceData;
  keyed: boolean;
}

/** A request's Idempotency-Key as the core keeps it, when the floor's calls carry one. */
const keyOf = (p: FloorParts, request: unknown) => (p.keyed ? requestKey('bench-floor', randomUUID(), request) : null);

/** The milliseconds `work` took: a floor times its storage calls alone. */
export const elapsed = async (work: () => Promise<unknown>) => {
  const t = performance.now();
  await work();
  return performance.now() - t;
};

/**
 * A registration's storage: the history rows its kind names (and the key's entry, `keyed`) read in one query, the
 * facts its rules read of other kinds, then the record, its pointer, its first version, the history rows (and the
 * key's answer) in one transaction. Its blocks take the record's id, as a one-block record's first block does.
 */
async function registerFloor(
  p: FloorParts & { facts: ReturnType<typeof factSource> },
  farm: FarmIndex,
  id: number,
  body: unknown,
): Promise<number> {
  const { kind, store, reference } = p;
  const request = kind.toRequest(kind.wire.request.parse(body));
  const appliedAt = kind.appliedAt(request);
  const idem = keyOf(p, body);
  let ms = 0;
  let state: Awaited<ReturnType<typeof store.readRegistrationState>> | undefined;
  ms += await elapsed(
    async () =>
      (state = await store.readRegistrationState(farm.meta, kind.historyKeys(farm, request), idem?.hash ?? null)),
  );
  let facts: readonly unknown[] | undefined;
  if (kind.facts) {
    const need = kind.facts;
    ms += await elapsed(async () => (facts = await p.facts.read(farm, need.topic, need.since(request), reference)));
  }
  const history = historyDocs(state!);
  const now = DateTime.now().setZone(ZONE);
  const { resolution } = kind.judge({
    request,
    appliedAt,
    now,
    window: null,
    farm,
    history,
    own: null,
    reference,
    ...(facts ? { facts } : {}),
  });
  const record = kind.view({ id, request, resolution, farm, exported: false, now });
  const change = creationChange(kind, {
    id,
    record,
    request,
    blockIds: Object.fromEntries(kind.blockKeys(farm, request).map((key) => [key, id])),
    farmId: farm.meta.farmId,
    appliedAt,
    now,
    client: 'bench',
    guards: guardsToWrite(
      state!,
      kind.updatedHistory({ rows: history, farm, removed: null, added: request, reference }),
    ),
    // The answer the gateway keeps under the key: the record as it answers it.
    idempotency: idem && { ...idem, outcome: 'created', answerJson: JSON.stringify([record]), version: 1 },
  });
  return ms + (await elapsed(() => store.commit(farm.meta, change)));
}

/**
 * An amendment's storage (generalizing bench/request-rows.ts's treatment amend floor): the pointer and its request read
 * in one query, the history rows of the old and new request in another, then one transaction replacing the record,
 * bumping the pointer under its ETag, writing the history rows and the version. Facts are not read again: the peak's
 * amendments keep the date and the locations.
 */
async function amendFloor(p: FloorParts, farm: FarmIndex, id: number, patch: unknown): Promise<number> {
  const { kind, store, reference } = p;
  let ms = 0;
  const idem = keyOf(p, patch);
  let read: Awaited<ReturnType<typeof store.readApplication>> | undefined;
  ms += await elapsed(async () => (read = await store.readApplication(farm.meta, id, idem?.hash ?? null)));
  const { pointer, request: stored } = read!.application!;
  const before = kind.fromStored(stored);
  const after = kind.toRequest(kind.wire.request.parse(mergePatch(kind.toWire(before), patch)));
  const keys = [...new Set([...kind.historyKeys(farm, before), ...kind.historyKeys(farm, after)])];
  let state: Awaited<ReturnType<typeof store.readRegistrationState>> | undefined;
  ms += await elapsed(async () => (state = await store.readRegistrationState(farm.meta, keys, null)));
  const history = historyDocs(state!);
  const now = DateTime.now().setZone(ZONE);
  const appliedAt = kind.appliedAt(after);
  const { resolution } = kind.judge({
    request: after,
    appliedAt,
    now,
    window: null,
    farm,
    history,
    own: before,
    reference,
  });
  const record = kind.view({ id, request: after, resolution, farm, exported: false, now });
  const updated = kind.updatedHistory({ rows: history, farm, removed: before, added: after, reference });
  const change = {
    id,
    write: { rowKey: pointer.recordRowKey, product: kind.listValue(after), appliedAtMs: appliedAt.toMillis(), record },
    drop: pointer.recordRowKey,
    pointer: { etag: pointer.etag, row: { ...pointer, version: pointer.version + 1 }, request: kind.toStored(after) },
    guards: guardsToWrite(state!, updated),
    version: {
      version: pointer.version + 1,
      date: record.dateCreated,
      client: 'bench',
      kind: 'amended' as const,
      changes: [],
    },
    idempotency: idem && {
      ...idem,
      outcome: 'current' as const,
      answerJson: JSON.stringify([record]),
      version: pointer.version + 1,
    },
    touchesKeys: true,
  };
  return ms + (await elapsed(() => store.commit(farm.meta, change)));
}

/**
 * The storage of an export of what a farm has pending (`exportCUE?pending=1`): the export use case itself
 * (shared/export/export-service.ts, as the function calls it, without HTTP), on a floor farm. Its job is real (its
 * Idempotency-Key, the pending records read in every kind, their claim, the job rows, a watch row and a message), but
 * its watch rows and messages belong to a queue of their own, which no worker reads and no sweeper watches (a watch
 * row's partition is its queue's: shared/export/job-watch.ts), so the floor's jobs never run and send nothing to SIEX.
 * The farm lookup it makes is from memory: `frontFloor` reads the farm as the gateway's copy expires.
 */
export function exportFloor(tables: TableStore, storage: { AzureWebJobsStorage: string }, farms: FarmIndex[]) {
  const queue = new QueueSender(storage, 'peak-floor-exports');
  const counters = new Counters(tables);
  const kinds = new KindStores({ tables, counters, maxBackdateDays: 7 });
  const deps: ExportDeps = {
    farms: new FarmStore(tables, 3600),
    kinds: exportKinds(kinds, referenceCache(tables, 3600, CATALOGUES)),
    jobs: new JobStore(tables, LEGACY_JOB_TYPE),
    jobIds: new IdBlocks(counters, 'JobAsync', 10),
    watch: new WatchStore(tables, () => queue.url),
    enqueue: (m) => queue.send(m),
    keys: new ExportKeyStore(tables),
    startAnswer,
  };
  const client: Client = {
    id: 'bench-floor',
    name: 'bench floor',
    email: 'floor@example.org',
    apiKeyHash: '',
    expires: '',
    farms: farms.map((f) => f.meta.rea),
    apimSubscriptionId: '',
    webhookUrl: '',
  };
  return (agrifarmId: string) =>
    elapsed(() =>
      exportRecords(deps, { client, agrifarmId, body: [], pending: true, idempotencyKey: randomUUID() }).catch(
        // Nothing pending is an answer too (409 NOTHING_TO_EXPORT), as the gateway's line counts it.
        (e: unknown) => {
          if (!(e instanceof DomainError)) throw e;
        },
      ),
    );
}
