import { DateTime } from 'luxon';
import { PhytoRequest, phytoRequestSchema } from '../api/phyto-schemas';
import { allocateBlockIds, BlockIds, legacyBlockIds } from '../records/block-ids';
import { blockKeysOf } from '../siex/cue-mapping';
import { IdSource } from '../store/counters';
import { Client } from '../clients/client-store';
import { formatDateTime, ZONE } from '../domain/dates';
import { DomainError, violation } from '../domain/errors';
import { zodViolations } from '../domain/validation';
import { accessibleFarm } from '../farms/farm-service';
import { FarmIndex } from '../farms/farm-index';
import { idempotencyHash, replay, requestFingerprint } from '../idempotency/idempotency';
import { applicationDate, guardKeysOf, historyEntryOf, productsContext, updatedGuards } from './application-change';
import { withConflictRetries } from '../records/conflict-retries';
import { recordRowKey } from '../records/record-keys';
import { amended, isExported, siexBlocksOf } from '../records/export-state';
import { IdempotencyEntry, RecordPointer } from '../records/record-store';
import { ChangeStore, StoredTreatment } from './phyto-store';
import { fieldChanges, mergePatch } from '../records/record-history';
import { recordAnswer } from './record-answer';
import { buildRecord } from './record-view';
import { ApplicationDeps, recordEtag } from './register-service';
import { checkApplication } from './rules';

/** Whether an unfinished export job holds the record (its id, or null): the export side answers, phyto does not know jobs. */
export type JobHolding = (farm: FarmIndex, pointer: RecordPointer) => Promise<number | null>;

export interface AmendDeps extends ApplicationDeps {
  store: ChangeStore;
  heldByJob: JobHolding;
  /** Where a crop and variety the amendment adds takes its IdAjena from: the record ids' counter. */
  ids: IdSource;
}

export interface ChangeInput {
  client: Client;
  agrifarmId: string;
  recordId: number;
  /** The `If-Match` header as sent (null: none). */
  ifMatch: string | null;
  idempotencyKey: string | null;
}

export interface AmendInput extends ChangeInput {
  /** A JSON Merge Patch (RFC 7396) of the registration request's fields. */
  patch: Record<string, unknown>;
}

export function recordNotFound(id: number): DomainError {
  return new DomainError('No such record.', [
    violation('RECORD_NOT_FOUND', 'path.id', `record ${id} is not a record of this farm campaign`),
  ]);
}

/** `If-Match`: `*` or a list of ETags, one of which must be the record's current one (weak ones never match). */
function ifMatchHolds(header: string | null, version: number): boolean {
  if (header === null) return true;
  const tags = header.split(',').map((t) => t.trim());
  return tags.includes('*') || tags.includes(recordEtag(version));
}

/**
 * The record a change applies to, as its caller may change it: this farm campaign's, not deleted, at the version
 * `If-Match` names, and in no unfinished export job (whose SIEX document would no longer say what the record says).
 */
export async function changeableRecord(
  store: Pick<ChangeStore, 'readApplication'>,
  heldByJob: JobHolding,
  farm: FarmIndex,
  input: ChangeInput,
  idemHash: string | null,
): Promise<{ replay: IdempotencyEntry } | { application: StoredTreatment }> {
  const { application, idempotency } = await store.readApplication(farm.meta, input.recordId, idemHash);
  if (idempotency) return { replay: idempotency };
  if (!application || application.request === null) throw recordNotFound(input.recordId);
  const { pointer } = application;
  if (!ifMatchHolds(input.ifMatch, pointer.version)) {
    throw new DomainError('The record changed since that version; read it again.', [
      violation(
        'PRECONDITION_FAILED',
        'header.If-Match',
        `the record is at ETag ${recordEtag(pointer.version)}, not ${input.ifMatch}`,
      ),
    ]);
  }
  if (pointer.exportState.kind === 'outcome-unknown') {
    // Whatever SIEX holds of it is not known: a change now could be undone, or a deletion doubled, by that job's outcome.
    throw new DomainError('Nobody knows yet whether SIEX took the last job that sent this record.', [
      violation(
        'RECORD_OUTCOME_UNKNOWN',
        'path.id',
        `job ${pointer.exportState.job} sent record ${pointer.id} to SIEX without learning the outcome`,
      ),
    ]);
  }
  const job = await heldByJob(farm, pointer);
  if (job !== null) {
    throw new DomainError('The record is in an export that has not finished.', [
      violation('RECORD_IN_EXPORT', 'path.id', `record ${pointer.id} is in export job ${job}, still running`),
    ]);
  }
  return { application: { pointer, request: application.request } };
}

/** The amendment's Idempotency-Key, with what makes a replay the same request. */
function amendIdempotency(input: AmendInput): { hash: string; requestHash: string } | null {
  if (!input.idempotencyKey) return null;
  return {
    hash: idempotencyHash(input.client.id, input.idempotencyKey),
    requestHash: requestFingerprint({
      operation: 'amend',
      agrifarmId: input.agrifarmId,
      id: input.recordId,
      ifMatch: input.ifMatch,
      patch: input.patch,
    }),
  };
}

/** The registration request once patched, validated whole as a registration's body is. */
function patchedRequest(before: PhytoRequest, patch: Record<string, unknown>): PhytoRequest {
  const merged = phytoRequestSchema.safeParse(mergePatch(before, patch), { reportInput: true });
  if (!merged.success) throw new DomainError('The amended record is not valid.', zodViolations('body', merged.error));
  return merged.data;
}

/**
 * The IdAjena of each crop and variety the amended record covers: those it still covers keep theirs, whatever their
 * order; a new one takes a fresh id (issue 23, item 2). A record stored before ids were kept per crop and variety had
 * them by position (`legacyBlockIds`): those are what SIEX holds.
 */
function amendedBlockIds(
  ids: IdSource,
  farm: FarmIndex,
  pointer: RecordPointer,
  before: PhytoRequest,
  after: PhytoRequest,
): Promise<BlockIds> {
  return allocateBlockIds(keptBlockIds(farm, pointer, before), blockKeysOf(after.idcp, farm), ids, pointer.id);
}

/** The ids the record keeps before an amendment: its own, or those SIEX holds of a row of the old way. */
function keptBlockIds(farm: FarmIndex, pointer: RecordPointer, before: PhytoRequest): BlockIds {
  const held = siexBlocksOf(pointer.exportState);
  return pointer.blockIds ?? legacyBlockIds(pointer.id, blockKeysOf(before.idcp, farm), held);
}

/**
 * Whether every crop and variety the record covers now has its IdAjena. When the farm data changed since the record
 * was stored, one may lack it, and the export refuses the record until an amendment allocates it: an amendment that
 * changes no field must still do that, or such a record could never be repaired.
 */
function hasAllBlockIds(farm: FarmIndex, pointer: RecordPointer, request: PhytoRequest): boolean {
  const kept = keptBlockIds(farm, pointer, request);
  return blockKeysOf(request.idcp, farm).every((key) => kept[key] !== undefined);
}

/**
 * Judges the amended request as a registration is judged, except that the record does not count against itself and
 * the back-dating window applies only to a new application date; answers the history rows read and what judging
 * resolved.
 */
async function judgeAmendment(
  deps: AmendDeps,
  farm: FarmIndex,
  before: PhytoRequest,
  after: PhytoRequest,
  now: DateTime,
) {
  const previous = historyEntryOf(farm, before);
  const applied = historyEntryOf(farm, after);
  const [reference, state] = await Promise.all([
    deps.reference.get(),
    deps.store.readRegistrationState(farm.meta, guardKeysOf(previous, applied), null),
  ]);
  const { violations, resolution } = checkApplication({
    request: after,
    appliedAt: applicationDate(after.dateApplication),
    now,
    // Corrections are accepted all campaign long; a new application date must be one a registration could have.
    maxBackdateDays: after.dateApplication === before.dateApplication ? null : deps.maxBackdateDays,
    farm,
    ...productsContext(state, reference.products, after, applied.sigpacs, previous),
    applicator: reference.applicators.get(after.applicator.user.ropo),
    advisor: after.advisor && reference.applicators.get(after.advisor.ropo),
    codes: reference.codes,
    codeInForce: (catalogue, code, on) => reference.codes.isValid(catalogue, code, on),
  });
  if (violations.length > 0) {
    throw new DomainError('The amended record breaks the rules below; nothing was changed.', violations);
  }
  return {
    guards: updatedGuards(state, previous, applied),
    product: reference.products.get(after.subtype.code)!,
    resolution,
  };
}

/**
 * Amends a record with a JSON Merge Patch of its registration request. The merged request is validated whole, as a
 * registration is (`judgeAmendment`); the record, its pointer, the history of every enclosure it leaves or reaches and
 * its new version commit in one transaction. An exported record goes back to not exported: the next export sends it
 * under the same IdAjena, and SIEX replaces it. A record sent to SIEX by other means stays exported: the gateway cannot
 * replace what it never sent, and sending it would put a second copy in the notebook.
 */
export async function amendApplication(
  deps: AmendDeps,
  input: AmendInput,
): Promise<{ status: number; body: string; etag?: string }> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const idem = amendIdempotency(input);

  return withConflictRetries(async () => {
    const found = await changeableRecord(deps.store, deps.heldByJob, farm, input, idem?.hash ?? null);
    if ('replay' in found) return replay(found.replay, idem!.requestHash);
    const { pointer, request: before } = found.application;
    const after = patchedRequest(before, input.patch);
    const changes = fieldChanges(before, after);
    if (changes.length === 0 && hasAllBlockIds(farm, pointer, before)) {
      const stored = await deps.store.readRecord(farm.meta, pointer.recordRowKey);
      if (stored)
        return {
          status: 200,
          body: JSON.stringify([recordAnswer(stored.record, farm, stored.blockIds)]),
          etag: recordEtag(pointer.version),
        };
    }

    const now = (deps.now ?? (() => DateTime.now()))().setZone(ZONE);
    const { guards, product, resolution } = await judgeAmendment(deps, farm, before, after, now);
    const version = pointer.version + 1;
    const exportState = amended(pointer.exportState);
    const record = {
      ...buildRecord(pointer.id, after, product, resolution, farm, isExported(exportState), now),
      dateCreated: pointer.created,
      dateModified: formatDateTime(now),
    };
    const appliedAt = applicationDate(after.dateApplication);
    const rowKey = recordRowKey(farm.meta.farmId, appliedAt.toMillis(), pointer.id);
    const blockIds = await amendedBlockIds(deps.ids, farm, pointer, before, after);
    const body = JSON.stringify([recordAnswer(record, farm, blockIds)]);
    const etag = recordEtag(version);
    await deps.store.commit(farm.meta, {
      id: pointer.id,
      write: { rowKey, product: after.subtype.code, appliedAtMs: appliedAt.toMillis(), record },
      drop: pointer.recordRowKey,
      pointer: {
        etag: pointer.etag,
        row: { ...pointer, recordRowKey: rowKey, exportState, version, blockIds },
        request: after,
      },
      guards,
      version: { version, date: formatDateTime(now), client: input.client.id, kind: 'amended', changes },
      idempotency: idem && { ...idem, status: 200, body, etag },
      touchesKeys: true,
    });
    return { status: 200, body, etag };
  }, deps.sleep);
}
