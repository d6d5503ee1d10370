import { DateTime } from 'luxon';
import { formatDateTime, ZONE } from '../domain/dates';
import { DomainError, violation } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { idempotencyHash, replay, requestFingerprint } from '../idempotency/idempotency';
import { guardKeysOf, updatedGuards, withConflictRetries } from './application-change';
import { ChangeInput, changeableRecord, historyEntryOf, JobHolding } from './amend-service';
import { ChangeStore, StoredApplication } from './phyto-store';

export interface DeleteDeps {
  store: ChangeStore;
  heldByJob: JobHolding;
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

/** A deletion's outcome: done here (204, or a replay), or the record SIEX holds, whose deletion SIEX must take first. */
export type DeleteOutcome =
  | { done: { status: number; body: string } }
  | { inSiex: StoredApplication; idempotency: { hash: string; requestHash: string } | null };

/**
 * Deletes a record SIEX never received, at once: the record row goes, its pointer stays as `deleted` (so its history
 * remains readable and its id never comes back), and the history of its enclosures no longer counts it, in one
 * transaction. A record SIEX holds is handed back for a deletion job; a record whose last export's outcome is unknown
 * cannot be deleted until that is settled, since nobody knows whether SIEX holds it.
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
    const { pointer, request } = found.application;
    if (pointer.outcomeUnknownJob > 0) {
      throw new DomainError('Nobody knows yet whether SIEX holds this record.', [
        violation(
          'RECORD_OUTCOME_UNKNOWN',
          'path.id',
          `export job ${pointer.outcomeUnknownJob} sent record ${pointer.id} to SIEX without learning the outcome`,
        ),
      ]);
    }
    if (pointer.everExported) return { inSiex: found.application, idempotency: idem };
    const removed = historyEntryOf(farm, request);
    const state = await deps.store.readRegistrationState(farm.meta, guardKeysOf(removed), null);
    const now = (deps.now ?? (() => DateTime.now()))().setZone(ZONE);
    const version = pointer.version + 1;
    await deps.store.commit(farm.meta, {
      id: pointer.id,
      drop: pointer.recordRowKey,
      pointer: { etag: pointer.etag, row: { ...pointer, version, state: 'deleted' }, request: null },
      guards: updatedGuards(state, removed, null),
      version: { version, date: formatDateTime(now), client: input.client.id, kind: 'deleted', changes: [] },
      idempotency: idem && { ...idem, status: 204, body: '' },
      touchesKeys: true,
    });
    return { done: { status: 204, body: '' } };
  }, deps.sleep);
}
