import { DateTime } from 'luxon';
import { formatDateTime, ZONE } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';
import { idempotencyHash, replay, requestFingerprint } from '../idempotency/idempotency';
import { guardKeysOf, historyEntryOf, updatedGuards } from './application-change';
import { withConflictRetries } from '../records/conflict-retries';
import { ChangeInput, changeableRecord, JobHolding } from './amend-service';
import { forgotten, heldBySiex } from '../records/export-state';
import { ChangeStore, PhytoChange, StoredTreatment } from './phyto-store';

export interface DeleteDeps {
  store: ChangeStore;
  heldByJob: JobHolding;
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

/** A deletion's outcome: done here (204, or a replay), or the record SIEX holds, whose deletion SIEX must take first. */
export type DeleteOutcome =
  | { done: { status: number; body: string } }
  | { inSiex: StoredTreatment; idempotency: { hash: string; requestHash: string } | null };

/**
 * Deletes a record SIEX never received, at once: the record row goes, its pointer stays as `deleted` (so its history
 * remains readable and its id never comes back), and the history of its enclosures no longer counts it, in one
 * transaction. A record SIEX holds from the gateway is handed back for a deletion job; one sent there by other means
 * is deleted here only (the gateway does not know its IdAjena there); a record whose last job's outcome is unknown
 * cannot be deleted until that is settled (changeableRecord), since nobody knows whether SIEX holds it.
 */
export async function deleteApplication(deps: DeleteDeps, farm: FarmIndex, input: ChangeInput): Promise<DeleteOutcome> {
  const idem = input.idempotencyKey
    ? {
        hash: idempotencyHash(input.client.id, input.idempotencyKey),
        requestHash: requestFingerprint({
          operation: 'delete',
          agrifarmId: input.agrifarmId,
          id: input.recordId,
          ifMatch: input.ifMatch,
        }),
      }
    : null;
  return withConflictRetries(async (): Promise<DeleteOutcome> => {
    const found = await changeableRecord(deps.store, deps.heldByJob, farm, input, idem?.hash ?? null);
    if ('replay' in found) return { done: replay(found.replay, idem!.requestHash) };
    const { pointer } = found.application;
    if (heldBySiex(pointer.exportState)) return { inSiex: found.application, idempotency: idem };
    const now = (deps.now ?? (() => DateTime.now()))().setZone(ZONE);
    await commitDeletion(deps.store, farm, found.application, {
      client: input.client.id,
      at: formatDateTime(now),
      idempotency: idem && { ...idem, status: 204, body: '' },
    });
    return { done: { status: 204, body: '' } };
  }, deps.sleep);
}

/**
 * The deletion of a record, in one transaction: its row goes, its pointer stays as `deleted` (so its history remains
 * readable and its id never comes back), the history of its enclosures no longer counts it, and a `deleted` version
 * says who and when (and which job, when SIEX was told first).
 */
async function commitDeletion(
  store: ChangeStore,
  farm: FarmIndex,
  { pointer, request }: StoredTreatment,
  by: { client: string; at: string; jobId?: number; idempotency?: PhytoChange['idempotency'] },
): Promise<void> {
  const removed = historyEntryOf(farm, request);
  const state = await store.readRegistrationState(farm.meta, guardKeysOf(removed), null);
  const version = pointer.version + 1;
  await store.commit(farm.meta, {
    id: pointer.id,
    drop: pointer.recordRowKey,
    pointer: {
      etag: pointer.etag,
      row: { ...pointer, version, state: 'deleted', exportState: forgotten(pointer.exportState) },
      request: null,
    },
    guards: updatedGuards(state, removed, null),
    version: {
      version,
      date: by.at,
      client: by.client,
      kind: 'deleted',
      ...(by.jobId ? { jobId: by.jobId } : {}),
      changes: [],
    },
    idempotency: by.idempotency ?? null,
    touchesKeys: true,
  });
}

/**
 * Records whose deletion SIEX accepted, deleted here too (a deletion job's outcome). Applied once: a record already
 * deleted is left as it is, so a redelivered job deletes nothing twice.
 */
export async function deleteAcceptedBySiex(
  store: ChangeStore,
  farm: FarmIndex,
  ids: readonly number[],
  by: { client: string; at: string; jobId: number },
): Promise<void> {
  for (const id of ids) {
    await withConflictRetries(async () => {
      const { application } = await store.readApplication(farm.meta, id, null);
      if (!application || application.request === null) return;
      await commitDeletion(store, farm, { pointer: application.pointer, request: application.request }, by);
    });
  }
}
