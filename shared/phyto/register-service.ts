import { DateTime } from 'luxon';
import { PhytoRecord, PhytoRequest } from '../api/phyto-schemas';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { Client } from '../clients/client-store';
import { formatDateTime, ZONE } from '../domain/dates';
import { DomainError } from '../domain/errors';
import { accessibleFarm } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { idempotencyHash, replay, requestFingerprint } from '../idempotency/idempotency';
import { IdSource } from '../store/counters';
import { applicationDate, guardKeysOf, historyEntryOf, productsContext, updatedGuards } from './application-change';
import { withConflictRetries } from '../records/conflict-retries';
import { registeredExportState } from '../records/export-state';
import { recordRowKey } from '../records/record-keys';
import { Guard } from '../records/record-store';
import { PhytoChange, RegistrationStore } from './phyto-store';
import { fieldChanges } from '../records/record-history';
import { recordAnswer } from './record-answer';
import { buildRecord } from './record-view';
import { checkApplication } from './rules';
import { allocateBlockIds, BlockIds } from '../records/block-ids';
import { blockKeysOf } from '../siex/cue-mapping';

/** What judging an application takes, whether it is registered or amended. */
export interface ApplicationDeps {
  farms: Pick<FarmReader, 'index'>;
  reference: VersionedValue<ReferenceData>;
  maxBackdateDays: number;
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

export interface RegisterDeps extends ApplicationDeps {
  store: RegistrationStore;
  ids: IdSource;
}

export interface RegisterInput {
  client: Client;
  agrifarmId: string;
  exported: boolean;
  body: PhytoRequest;
  idempotencyKey: string | null;
}

/** The ETag of a record at a version: strong, so `If-Match` compares it exactly. */
export function recordEtag(version: number): string {
  return `"${version}"`;
}

/**
 * Validates and stores one application. The checks and the write form one optimistic transaction: history is read,
 * the rules run, and the write succeeds only if that history is unchanged, so no interleaving of concurrent requests
 * can store two applications that together break an interval or a count.
 */
export async function registerApplication(
  deps: RegisterDeps,
  input: RegisterInput,
): Promise<{ status: number; body: string; etag?: string }> {
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const appliedAt = applicationDate(input.body.dateApplication);
  const applied = historyEntryOf(farm, input.body);
  const idem = input.idempotencyKey
    ? {
        hash: idempotencyHash(input.client.id, input.idempotencyKey),
        requestHash: requestFingerprint({ agrifarmId: input.agrifarmId, exported: input.exported, body: input.body }),
      }
    : null;

  // The last attempt's record and answer. Record ids are never handed out twice, so if its pointer exists after a
  // conflict, that attempt's commit landed and only its answer was lost (the SDK retried the write and was refused):
  // it is this request's answer, and judging again would store the application twice.
  let last: { id: number; reply: { status: number; body: string; etag: string } } | null = null;
  return withConflictRetries(async () => {
    if (last && (await deps.store.readPointers(farm.meta, [last.id])).has(last.id)) return last.reply;
    const [reference, state] = await Promise.all([
      deps.reference.get(),
      deps.store.readRegistrationState(farm.meta, guardKeysOf(applied), idem?.hash ?? null),
    ]);
    if (idem && state.idempotency) return replay(state.idempotency, idem.requestHash);
    const now = (deps.now ?? (() => DateTime.now()))().setZone(ZONE);
    const { violations, resolution } = checkApplication({
      request: input.body,
      appliedAt,
      now,
      maxBackdateDays: deps.maxBackdateDays,
      farm,
      ...productsContext(state, reference.products, input.body, applied.sigpacs, null),
      applicator: reference.applicators.get(input.body.applicator.user.ropo),
      advisor: input.body.advisor && reference.applicators.get(input.body.advisor.ropo),
      codeInForce: (catalogue, code, on) => reference.codes.isValid(catalogue, code, on),
      codes: reference.codes,
    });
    if (violations.length > 0) {
      throw new DomainError('The application breaks the rules below; nothing was stored.', violations);
    }
    const id = await deps.ids.take();
    const blockIds = await allocateBlockIds(null, blockKeysOf(input.body.idcp, farm), deps.ids, id);
    const main = reference.products.get(input.body.subtype.code)!;
    const record = buildRecord(id, input.body, main, resolution, farm, input.exported, now);
    const body = JSON.stringify([recordAnswer(record, farm, blockIds)]);
    const etag = recordEtag(1);
    last = { id, reply: { status: 201, body, etag } };
    await deps.store.commit(
      farm.meta,
      creationChange({
        id,
        record,
        request: input.body,
        blockIds,
        farmId: farm.meta.farmId,
        appliedAt,
        now,
        client: input.client.id,
        guards: updatedGuards(state, null, applied),
        idempotency: idem && { ...idem, status: 201, body, etag },
      }),
    );
    return last.reply;
  }, deps.sleep);
}

/**
 * A new record's change: the record under its list key, its pointer (version 1, exported as the record says), the
 * enclosure histories given, its first version (`created`, every field changed from nothing) and the request's
 * idempotency entry.
 */
export function creationChange(c: {
  id: number;
  record: PhytoRecord;
  request: PhytoRequest;
  /** The IdAjena of each block key (null: written as rows were before they were kept, as some tests reproduce). */
  blockIds: BlockIds | null;
  farmId: number;
  appliedAt: DateTime;
  now: DateTime;
  client: string;
  guards: Guard[];
  idempotency: PhytoChange['idempotency'];
}): PhytoChange {
  const rowKey = recordRowKey(c.farmId, c.appliedAt.toMillis(), c.id);
  return {
    id: c.id,
    write: { rowKey, product: c.request.subtype.code, appliedAtMs: c.appliedAt.toMillis(), record: c.record },
    pointer: {
      row: {
        farmId: c.farmId,
        recordRowKey: rowKey,
        exportState: registeredExportState(c.record.exported === '1'),
        version: 1,
        state: 'active',
        created: c.record.dateCreated,
        blockIds: c.blockIds,
      },
      request: c.request,
    },
    guards: c.guards,
    version: {
      version: 1,
      date: formatDateTime(c.now),
      client: c.client,
      kind: 'created',
      changes: fieldChanges(null, c.request),
    },
    idempotency: c.idempotency,
  };
}
