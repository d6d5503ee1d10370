import { DateTime } from 'luxon';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { formatDateTime } from '../domain/dates';
import { FarmIndex } from '../farms/farm-index';
import { RequestKey, requestKey } from '../idempotency/idempotency';
import { ChangeInput, changeableRecord, ChangeStore, JobHolding } from './changeable-record';
import { withConflictRetries } from './conflict-retries';
import { forgotten, heldBySiex } from './export-state';
import { RecordKind } from './record-kind';
import { RecordResult, replayed } from './record-result';
import { RecordChange, RecordPointer, RecordView } from './record-rows';
import { StoredApplication } from './record-store';
import { guardsToWrite, historyDocs, nowIn } from './register-record';

/** What deleting a record of a kind takes: its store, and the reference data its history rows are counted with. */
export interface DeletionParts<Req, Rec extends RecordView> {
  kind: RecordKind<Req, Rec>;
  store: ChangeStore<Rec>;
  reference: Pick<VersionedValue<ReferenceData>, 'get'>;
}

export interface DeleteDeps<Req, Rec extends RecordView> extends DeletionParts<Req, Rec> {
  heldByJob: JobHolding;
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A deletion's outcome: done here (deleted, or a replay), or the record SIEX holds, whose deletion SIEX must take
 * first (shared/export/deletion-service.ts starts that job).
 */
export type DeleteOutcome =
  { done: RecordResult } | { inSiex: StoredApplication<unknown>; idempotency: RequestKey | null };

/**
 * Deletes a record SIEX never received, at once: the record row goes, its pointer stays as `deleted` (so its history
 * remains readable and its id never comes back), and the kind's history rows no longer count it, in one transaction.
 * A record SIEX holds from the gateway is handed back for a deletion job; one sent there by other means is deleted
 * here only (the gateway does not know its IdAjena there); a record whose last job's outcome is unknown cannot be
 * deleted until that is settled (changeableRecord), since nobody knows whether SIEX holds it.
 */
export async function requestDeletion<Req, Rec extends RecordView>(
  deps: DeleteDeps<Req, Rec>,
  farm: FarmIndex,
  input: ChangeInput,
): Promise<DeleteOutcome> {
  const idem = requestKey(input.client.id, input.idempotencyKey, {
    operation: 'delete',
    agrifarmId: input.agrifarmId,
    id: input.recordId,
    ifMatch: input.ifMatch,
  });
  return withConflictRetries(async (): Promise<DeleteOutcome> => {
    const found = await changeableRecord(deps.store, deps.heldByJob, farm, input, idem?.hash ?? null);
    if ('replay' in found) return { done: replayed(found.replay, idem!.requestHash) };
    const { pointer } = found.application;
    if (heldBySiex(pointer.exportState)) return { inSiex: found.application, idempotency: idem };
    const done: RecordResult = { outcome: 'deleted', answerJson: '' };
    await commitDeletion(deps, farm, pointer, deps.kind.fromStored(found.application.request), {
      client: input.client.id,
      at: formatDateTime(nowIn(deps)),
      idempotency: idem && { ...idem, outcome: done.outcome, answerJson: done.answerJson },
    });
    return { done };
  }, deps.sleep);
}

/**
 * The deletion of a record, in one transaction: its row goes, its pointer stays as `deleted` (so its history remains
 * readable and its id never comes back), the kind's history rows no longer count it, and a `deleted` version says who
 * and when (and which job, when SIEX was told first).
 */
async function commitDeletion<Req, Rec extends RecordView>(
  { kind, store, reference }: DeletionParts<Req, Rec>,
  farm: FarmIndex,
  pointer: RecordPointer,
  request: Req,
  by: { client: string; at: string; jobId?: number; idempotency?: RecordChange<unknown, Rec>['idempotency'] },
): Promise<void> {
  const [data, state] = await Promise.all([
    reference.get(),
    store.readRegistrationState(farm.meta, kind.historyKeys(farm, request), null),
  ]);
  const updated = kind.updatedHistory({
    rows: historyDocs(state),
    farm,
    removed: request,
    added: null,
    reference: data,
  });
  const version = pointer.version + 1;
  await store.commit(farm.meta, {
    id: pointer.id,
    drop: pointer.recordRowKey,
    pointer: {
      etag: pointer.etag,
      row: { ...pointer, version, state: 'deleted', exportState: forgotten(pointer.exportState) },
      request: null,
    },
    guards: guardsToWrite(state, updated),
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
export async function deleteAcceptedBySiex<Req, Rec extends RecordView>(
  parts: DeletionParts<Req, Rec>,
  farm: FarmIndex,
  ids: readonly number[],
  by: { client: string; at: string; jobId: number },
): Promise<void> {
  for (const id of ids) {
    await withConflictRetries(async () => {
      const { application } = await parts.store.readApplication(farm.meta, id, null);
      if (!application || application.request === null) return;
      await commitDeletion(parts, farm, application.pointer, parts.kind.fromStored(application.request), by);
    });
  }
}
