import { DateTime } from 'luxon';
import { CATALOGUES } from '../shared/app/siex-catalogues';
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
import { Counters } from '../shared/store/counters';
import { TableStore } from '../shared/store/tables';

/**
 * The storage floors of a kind's registration, amendment and deletion, for any kind (issue 37 item 3): the reads and the one
 * transaction the records core makes (shared/records/register-record.ts), done straight against the same storage,
 * without HTTP, the keys, the farm lookup or the id counter. The kind's rules run between the reads and the write (the
 * record's view needs what they resolve), but are not timed: each floor returns the milliseconds of its storage work.
 */
export interface KindFloors {
  register(farm: FarmIndex, id: number, body: unknown): Promise<number>;
  /** `patch`, a merge patch of the registration body, on record `id` of the farm (registered by `register`). */
  amend(farm: FarmIndex, id: number, patch: unknown): Promise<number>;
  /** The deletion of record `id`, never sent to SIEX. */
  remove(farm: FarmIndex, id: number): Promise<number>;
}

/** The stores, reference data and fact source every kind's floors share. */
export async function floorsFor(tables: TableStore): Promise<(entry: KindEntry) => KindFloors> {
  const kinds = new KindStores({ tables, counters: new Counters(tables), maxBackdateDays: 7 });
  const facts = factSource({ farms: new FarmStore(tables, 0), kinds });
  const reference = await referenceCache(tables, 3600, CATALOGUES).get();
  return (entry) => {
    const kind = entry.load.kind();
    const store = kinds.of(entry).store;
    return {
      register: (farm, id, body) => registerFloor({ kind, store, reference, facts }, farm, id, body),
      amend: (farm, id, patch) => amendFloor({ kind, store, reference }, farm, id, patch),
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
}

const elapsed = async (work: () => Promise<unknown>) => {
  const t = performance.now();
  await work();
  return performance.now() - t;
};

/**
 * A registration's storage: the history rows its kind names read in one query (no idempotency key: the peak's ERPs
 * send none), the facts its rules read of other kinds, then the record, its pointer, its first version and the
 * history rows in one transaction. Its blocks take the record's id, as a one-block record's first block does.
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
  let ms = 0;
  let state: Awaited<ReturnType<typeof store.readRegistrationState>> | undefined;
  ms += await elapsed(
    async () => (state = await store.readRegistrationState(farm.meta, kind.historyKeys(farm, request), null)),
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
    idempotency: null,
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
  let read: Awaited<ReturnType<typeof store.readApplication>> | undefined;
  ms += await elapsed(async () => (read = await store.readApplication(farm.meta, id, null)));
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
    idempotency: null,
    touchesKeys: true,
  };
  return ms + (await elapsed(() => store.commit(farm.meta, change)));
}
