import { DateTime } from 'luxon';
import { formatDateTime } from '../domain/dates';
import { DomainError } from '../domain/errors';
import { zodViolations } from '../domain/validation';
import { accessibleFarm } from '../farms/farm-service';
import { FarmIndex } from '../farms/farm-index';
import { RequestKey, requestKey } from '../idempotency/idempotency';
import { IdSource } from '../store/counters';
import { allocateBlockIds, BlockIds, legacyBlockIds } from './block-ids';
import { ChangeInput, changeableRecord, ChangeStore, JobHolding } from './changeable-record';
import { withConflictRetries } from './conflict-retries';
import { amended, isExported, siexBlocksOf } from './export-state';
import { fieldChanges, mergePatch } from './record-history';
import { recordRowKey } from './record-keys';
import { RecordKind } from './record-kind';
import { recordAnswerResult, RecordResult, replayed } from './record-result';
import { RecordPointer, RecordView } from './record-rows';
import { factsFor, guardsToWrite, historyDocs, JudgingDeps, nowIn } from './register-record';

export interface AmendDeps<Req, Rec extends RecordView, Res> extends JudgingDeps {
  kind: RecordKind<Req, Rec, Res>;
  store: ChangeStore<Rec>;
  heldByJob: JobHolding;
  /** Where a block key the amendment adds (a new crop and variety) takes its IdAjena from: the kind's counter. */
  ids: IdSource;
}

export interface AmendInput extends ChangeInput {
  /** A JSON Merge Patch (RFC 7396) of the registration request's fields. */
  patch: Record<string, unknown>;
}

/** The amendment's Idempotency-Key, with what makes a replay the same request. */
function amendIdempotency(input: AmendInput): RequestKey | null {
  return requestKey(input.client.id, input.idempotencyKey, {
    operation: 'amend',
    agrifarmId: input.agrifarmId,
    id: input.recordId,
    ifMatch: input.ifMatch,
    patch: input.patch,
  });
}

/** The registration request once patched (on its wire form), validated whole as a registration's body is. */
function patchedRequest<Req>(kind: RecordKind<Req, RecordView>, before: Req, patch: Record<string, unknown>): Req {
  const merged = kind.wire.request.safeParse(mergePatch(kind.toWire(before), patch), { reportInput: true });
  if (!merged.success) throw new DomainError('The amended record is not valid.', zodViolations('body', merged.error));
  return kind.toRequest(merged.data);
}

/** The ids the record keeps before an amendment: its own, or those SIEX holds of a row of the old way. */
function keptBlockIds<Req>(
  kind: RecordKind<Req, RecordView>,
  farm: FarmIndex,
  pointer: RecordPointer,
  before: Req,
): BlockIds {
  const held = siexBlocksOf(pointer.exportState);
  return pointer.blockIds ?? legacyBlockIds(pointer.id, kind.blockKeys(farm, before), held);
}

/**
 * Whether every block key the record makes now has its IdAjena. When the farm data changed since the record was
 * stored, one may lack it, and the export refuses the record until an amendment allocates it: an amendment that
 * changes no field must still do that, or such a record could never be repaired.
 */
function hasAllBlockIds<Req>(
  kind: RecordKind<Req, RecordView>,
  farm: FarmIndex,
  pointer: RecordPointer,
  request: Req,
): boolean {
  const kept = keptBlockIds(kind, farm, pointer, request);
  return kind.blockKeys(farm, request).every((key) => kept[key] !== undefined);
}

/**
 * Judges the amended request as a registration is judged, except that the record does not count against itself and
 * the back-dating window applies only to a new application date; answers the history rows to write and what judging
 * resolved.
 */
async function judgeAmendment<Req, Rec extends RecordView, Res>(
  deps: AmendDeps<Req, Rec, Res>,
  farm: FarmIndex,
  before: Req,
  after: Req,
  now: DateTime,
) {
  const { kind } = deps;
  const keys = [...new Set([...kind.historyKeys(farm, before), ...kind.historyKeys(farm, after)])];
  const [reference, state] = await Promise.all([
    deps.reference.get(),
    deps.store.readRegistrationState(farm.meta, keys, null),
  ]);
  const history = historyDocs(state);
  const facts = await factsFor(deps, kind, farm, after, reference);
  const appliedAt = kind.appliedAt(after);
  const { violations, resolution } = kind.judge({
    request: after,
    appliedAt,
    now,
    // Corrections are accepted all campaign long; a new application date must be one a registration could have.
    window: appliedAt.toMillis() === kind.appliedAt(before).toMillis() ? null : kind.recordingWindow(deps.settings),
    farm,
    history,
    own: before,
    reference,
    ...(facts ? { facts } : {}),
  });
  if (violations.length > 0) {
    throw new DomainError('The amended record breaks the rules below; nothing was changed.', violations);
  }
  const updated = kind.updatedHistory({ rows: history, farm, removed: before, added: after, reference });
  return { guards: guardsToWrite(state, updated), resolution, appliedAt };
}

/**
 * Amends a record with a JSON Merge Patch of its registration request. The merged request is validated whole, as a
 * registration is (`judgeAmendment`); the record, its pointer, the history rows it leaves or reaches and its new
 * version commit in one transaction. An exported record goes back to not exported: the next export sends it under the
 * same IdAjena, and SIEX replaces it. A record sent to SIEX by other means stays exported: the gateway cannot replace
 * what it never sent, and sending it would put a second copy in the notebook.
 */
export async function amendRecord<Req, Rec extends RecordView, Res>(
  deps: AmendDeps<Req, Rec, Res>,
  input: AmendInput,
): Promise<RecordResult> {
  const { kind } = deps;
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const idem = amendIdempotency(input);

  return withConflictRetries(async (): Promise<RecordResult> => {
    const found = await changeableRecord(deps.store, deps.heldByJob, farm, input, idem?.hash ?? null);
    if ('replay' in found) return replayed(found.replay, idem!.requestHash);
    const { pointer } = found.application;
    const before = kind.fromStored(found.application.request);
    const after = patchedRequest(kind, before, input.patch);
    const changes = fieldChanges(kind.toWire(before), kind.toWire(after));
    if (changes.length === 0 && hasAllBlockIds(kind, farm, pointer, before)) {
      const stored = await deps.store.readRecord(farm.meta, pointer.recordRowKey);
      if (stored) return recordAnswerResult(kind, farm, stored, pointer.version);
    }

    const now = nowIn(deps);
    const { guards, resolution, appliedAt } = await judgeAmendment(deps, farm, before, after, now);
    const version = pointer.version + 1;
    const exportState = amended(pointer.exportState);
    const record: Rec = {
      ...kind.view({ id: pointer.id, request: after, resolution, farm, exported: isExported(exportState), now }),
      dateCreated: pointer.created,
      dateModified: formatDateTime(now),
    };
    const rowKey = recordRowKey(farm.meta.farmId, appliedAt.toMillis(), pointer.id);
    const blockIds = await allocateBlockIds(
      keptBlockIds(kind, farm, pointer, before),
      kind.blockKeys(farm, after),
      deps.ids,
      pointer.id,
    );
    const result = recordAnswerResult(kind, farm, { record, blockIds }, version);
    await deps.store.commit(farm.meta, {
      id: pointer.id,
      write: { rowKey, product: kind.listValue(after), appliedAtMs: appliedAt.toMillis(), record },
      drop: pointer.recordRowKey,
      pointer: {
        etag: pointer.etag,
        row: { ...pointer, recordRowKey: rowKey, exportState, version, blockIds },
        request: kind.toStored(after),
      },
      guards,
      version: { version, date: formatDateTime(now), client: input.client.id, kind: 'amended', changes },
      idempotency: idem && { ...idem, outcome: result.outcome, answerJson: result.answerJson, version },
      touchesKeys: true,
    });
    return result;
  }, deps.sleep);
}
