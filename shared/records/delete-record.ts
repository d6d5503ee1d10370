import { FarmIndex } from '../farms/farm-index';
import { withConflictRetries } from './conflict-retries';
import { forgotten } from './export-state';
import { RecordKind } from './record-kind';
import { Guard, RecordStore, RecordView, StoredApplication } from './record-store';

/** A kind and its store: what deleting one of its records takes. */
interface DeletionParts<Req, Rec extends RecordView> {
  kind: Pick<RecordKind<Req, Rec>, 'historyKeys' | 'updatedHistory'>;
  store: Pick<RecordStore<Req, Rec>, 'readApplication' | 'readRegistrationState' | 'commit'>;
}

/**
 * The deletion of a record of any kind, in one transaction: its row goes, its pointer stays as `deleted` (so its
 * history remains readable and its id never comes back), the kind's history rows no longer count it (written under
 * the ETags read), and a `deleted` version says who, when and which job told SIEX first.
 */
async function commitDeletion<Req, Rec extends RecordView>(
  { kind, store }: DeletionParts<Req, Rec>,
  farm: FarmIndex,
  { pointer, request }: StoredApplication<Req>,
  by: { client: string; at: string; jobId: number },
): Promise<void> {
  const state = await store.readRegistrationState(farm.meta, kind.historyKeys(farm, request), null);
  const docs = new Map([...state.guards].map(([key, g]) => [key, g.doc]));
  const guards = [...kind.updatedHistory(docs, farm, request, null)].map(([rowKey, doc]): Guard => ({
    ...state.guards.get(rowKey),
    rowKey,
    doc,
  }));
  const version = pointer.version + 1;
  await store.commit(farm.meta, {
    id: pointer.id,
    drop: pointer.recordRowKey,
    pointer: {
      etag: pointer.etag,
      row: { ...pointer, version, state: 'deleted', exportState: forgotten(pointer.exportState) },
      request: null,
    },
    guards,
    version: { version, date: by.at, client: by.client, kind: 'deleted', jobId: by.jobId, changes: [] },
    idempotency: null,
    touchesKeys: true,
  });
}

/**
 * Records of a kind whose deletion SIEX accepted, deleted here too (a deletion job's outcome). Applied once: a record
 * already deleted is left as it is, so a redelivered job deletes nothing twice.
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
      await commitDeletion(parts, farm, { pointer: application.pointer, request: application.request }, by);
    });
  }
}
