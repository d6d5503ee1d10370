import { DateTime } from 'luxon';
import { Services } from '../../shared/app/services';
import { formatDateTime } from '../../shared/domain/dates';
import { FarmIndex } from '../../shared/farms/farm-index';
import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { allocateBlockIds } from '../../shared/records/block-ids';
import { amended, registeredExportState } from '../../shared/records/export-state';
import { recordRowKey } from '../../shared/records/record-keys';
import { fieldChanges, mergePatch } from '../../shared/records/record-history';
import { Guard, RecordPointer } from '../../shared/records/record-store';
import { testSiexCodes } from './phyto-fixtures';

/**
 * Fertilizations written through the records core as the kind says (its request, rules, view, history rows and CUE
 * block keys), for the export tests while the fertilization HTTP routes are not there yet: a registration and an
 * amendment, each one transaction of the store, as the core's services write them.
 */
const kind = fertilizationKind(() => testSiexCodes());
type Body = Record<string, unknown>;

function judged(farm: FarmIndex, body: Body, history: ReadonlyMap<string, unknown>, now: DateTime) {
  const request = kind.toRequest(body);
  const appliedAt = kind.appliedAt(request);
  const { violations, resolution } = kind.judge({
    request,
    appliedAt,
    now,
    maxBackdateDays: null,
    farm,
    history,
    own: null,
  });
  if (violations.length > 0) throw new Error(`the fertilization is refused: ${JSON.stringify(violations)}`);
  return { request, appliedAt, resolution };
}

function guardsOf(read: Map<string, Guard>, updated: Map<string, unknown>): Guard[] {
  return [...updated].map(([rowKey, doc]) => ({ ...read.get(rowKey), rowKey, doc }));
}

/** Registers a fertilization on the farm, its id from the kind's counter unless `id` is given; its id. */
export async function seedFertilization(
  svc: Services,
  farm: FarmIndex,
  body: Body,
  o: { client: string; id?: number; now?: DateTime },
): Promise<number> {
  const store = svc.fertilization;
  const ids = (await svc.exportKinds()).of(kind.urnType).ids;
  const now = o.now ?? DateTime.now();
  const probe = kind.toRequest(body);
  const state = await store.readRegistrationState(farm.meta, kind.historyKeys(farm, probe), null);
  const docs = new Map([...state.guards].map(([k, g]) => [k, g.doc]));
  const { request, appliedAt, resolution } = judged(farm, body, docs, now);
  const id = o.id ?? (await ids.take());
  const record = kind.view({ id, request, resolution, farm, exported: false, now });
  const mapped = kind.cue.map(record, farm);
  if (!mapped.ok) throw new Error(`the fertilization cannot be mapped: ${mapped.missing.join('; ')}`);
  const blockIds = await allocateBlockIds(
    null,
    mapped.blocks.map((b) => b.key),
    ids,
    id,
  );
  const rowKey = recordRowKey(farm.meta.farmId, appliedAt.toMillis(), id);
  await store.commit(farm.meta, {
    id,
    write: { rowKey, product: kind.listValue(request), appliedAtMs: appliedAt.toMillis(), record },
    pointer: {
      row: {
        farmId: farm.meta.farmId,
        recordRowKey: rowKey,
        exportState: registeredExportState(false),
        version: 1,
        state: 'active',
        created: record.dateCreated,
        blockIds,
      },
      request,
    },
    guards: guardsOf(state.guards, kind.updatedHistory(docs, farm, null, request)),
    version: { version: 1, date: formatDateTime(now), client: o.client, kind: 'created', changes: [] },
    idempotency: null,
    touchesKeys: false,
  });
  return id;
}

/** Amends a fertilization by a merge patch of its wire body, keeping its date (so its row key) and its block ids. */
export async function amendFertilization(
  svc: Services,
  farm: FarmIndex,
  id: number,
  patch: Body,
  o: { client: string; now?: DateTime },
): Promise<void> {
  const store = svc.fertilization;
  const now = o.now ?? DateTime.now();
  const { application } = await store.readApplication(farm.meta, id, null);
  if (!application?.request) throw new Error(`fertilization ${id} is not there`);
  const pointer: RecordPointer = application.pointer;
  const old = application.request;
  const body = mergePatch(kind.toWire(old), patch) as Body;
  const changed = kind.toRequest(body);
  const state = await store.readRegistrationState(
    farm.meta,
    [...new Set([...kind.historyKeys(farm, old), ...kind.historyKeys(farm, changed)])],
    null,
  );
  const docs = new Map([...state.guards].map(([k, g]) => [k, g.doc]));
  const { request, appliedAt, resolution } = judged(farm, body, docs, now);
  const record = kind.view({ id, request, resolution, farm, exported: false, now });
  const version = pointer.version + 1;
  await store.commit(farm.meta, {
    id,
    write: {
      rowKey: pointer.recordRowKey,
      product: kind.listValue(request),
      appliedAtMs: appliedAt.toMillis(),
      record,
    },
    drop: pointer.recordRowKey,
    pointer: {
      etag: pointer.etag,
      row: { ...pointer, version, exportState: amended(pointer.exportState) },
      request,
    },
    guards: guardsOf(state.guards, kind.updatedHistory(docs, farm, old, request)),
    version: {
      version,
      date: formatDateTime(now),
      client: o.client,
      kind: 'amended',
      changes: fieldChanges(kind.toWire(old) as object, kind.toWire(request) as object),
    },
    idempotency: null,
  });
}
