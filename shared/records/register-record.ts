import { DateTime } from 'luxon';
import { dateTimeNow } from '../time/date-time';
import { VersionedValue } from '../cache/versioned-value';
import { ReferenceData } from '../catalog/reference-data';
import { Client } from '../clients/client-store';
import { RecordSettings } from '../config/settings';
import { formatDateTime, ZONE } from '../domain/dates';
import { DomainError } from '../domain/errors';
import { FarmIndex } from '../farms/farm-index';
import { accessibleFarm } from '../farms/farm-service';
import { FarmReader } from '../farms/farm-store';
import { requestKey } from '../idempotency/idempotency';
import { IdSource } from '../store/counters';
import { allocateBlockIds, BlockIds } from './block-ids';
import { withConflictRetries } from './conflict-retries';
import { registeredExportState } from './export-state';
import { fieldChanges } from './record-history';
import { recordRowKey } from './record-keys';
import { FactSource } from './record-facts';
import { RecordKind } from './record-kind';
import { recordAnswerResult, RecordResult, replayed } from './record-result';
import { Guard, RecordChange, RecordView } from './record-rows';
import { RecordStore, RegistrationState } from './record-store';

/** What judging a record takes, whether it is registered or amended. */
export interface JudgingDeps {
  farms: Pick<FarmReader, 'index'>;
  reference: VersionedValue<ReferenceData>;
  /** What the kinds read of the settings for their recording windows. */
  settings: RecordSettings;
  /** Where the facts a kind's rules read of other kinds come from (RecordKind.facts); needed only by such a kind. */
  facts?: FactSource;
  now?: () => DateTime;
  sleep?: (ms: number) => Promise<void>;
}

/** What registration reads and writes of a kind's store (whose requests are the kind's stored documents). */
export type RegistrationStore<Rec extends RecordView> = Pick<
  RecordStore<unknown, Rec>,
  'readRegistrationState' | 'commit' | 'readPointers'
>;

export interface RegisterDeps<Req, Rec extends RecordView, Res> extends JudgingDeps {
  kind: RecordKind<Req, Rec, Res>;
  store: RegistrationStore<Rec>;
  /** The kind's counter: record ids and the IdAjena of their blocks. */
  ids: IdSource;
}

export interface RegisterInput {
  client: Client;
  agrifarmId: string;
  exported: boolean;
  /** The registration body as sent, once the kind's wire schema accepted it (the contract did). */
  body: unknown;
  idempotencyKey: string | null;
}

/** The history rows a change reads, by row key, as the kind's JSON documents. */
export function historyDocs(state: RegistrationState): Map<string, unknown> {
  return new Map([...state.guards].map(([key, g]) => [key, g.doc]));
}

/** The history rows to write, each under the ETag it was read with (none: a row not written yet). */
export function guardsToWrite(state: RegistrationState, updated: ReadonlyMap<string, unknown>): Guard[] {
  return [...updated].map(([rowKey, doc]) => {
    const etag = state.guards.get(rowKey)?.etag;
    return { rowKey, doc, ...(etag !== undefined ? { etag } : {}) };
  });
}

/**
 * The facts a kind's rules read (RecordKind.facts), as every publishing kind's records state them now: read on each
 * attempt, as the reference data is, so a retry judges what is stored then. Undefined for a kind that reads none.
 */
export async function factsFor<Req>(
  deps: JudgingDeps,
  kind: Pick<RecordKind<Req, RecordView>, 'facts'>,
  farm: FarmIndex,
  request: Req,
  reference: ReferenceData,
): Promise<readonly unknown[] | undefined> {
  if (!kind.facts) return undefined;
  if (!deps.facts) throw new Error(`the kind reads the facts "${kind.facts.topic}", but no fact source was given`);
  return deps.facts.read(farm, kind.facts.topic, kind.facts.since(request), reference);
}

/** The moment a change is made, in Madrid. */
export function nowIn(deps: { now?: () => DateTime }): DateTime {
  return (deps.now ?? (() => dateTimeNow()))().setZone(ZONE);
}

/**
 * Validates and stores one record of a kind. The checks and the write form one optimistic transaction: the history
 * rows the kind names are read, its rules run, and the write succeeds only if those rows are unchanged, so no
 * interleaving of concurrent requests can store two records that together break an interval, a count or a limit.
 */
export async function registerRecord<Req, Rec extends RecordView, Res>(
  deps: RegisterDeps<Req, Rec, Res>,
  input: RegisterInput,
): Promise<RecordResult> {
  const { kind, store } = deps;
  const farm = await accessibleFarm(deps.farms, input.client, input.agrifarmId);
  const request = kind.toRequest(input.body);
  const appliedAt = kind.appliedAt(request);
  const historyKeys = kind.historyKeys(farm, request);
  const idem = requestKey(input.client.id, input.idempotencyKey, {
    agrifarmId: input.agrifarmId,
    exported: input.exported,
    body: input.body,
  });

  // The last attempt's record and answer. Record ids are never handed out twice, so if its pointer exists after a
  // conflict, that attempt's commit landed and only its answer was lost (the SDK retried the write and was refused):
  // it is this request's answer, and judging again would store the record twice.
  let last: { id: number; result: RecordResult } | null = null;
  return withConflictRetries(async () => {
    if (last && (await store.readPointers(farm.meta, [last.id])).has(last.id)) return last.result;
    const [reference, state] = await Promise.all([
      deps.reference.get(),
      store.readRegistrationState(farm.meta, historyKeys, idem?.hash ?? null),
    ]);
    if (idem && state.idempotency) return replayed(state.idempotency, idem.requestHash);
    const facts = await factsFor(deps, kind, farm, request, reference);
    const now = nowIn(deps);
    const history = historyDocs(state);
    const { violations, resolution } = kind.judge({
      request,
      appliedAt,
      now,
      window: kind.recordingWindow(deps.settings),
      farm,
      history,
      own: null,
      reference,
      ...(facts ? { facts } : {}),
    });
    if (violations.length > 0) {
      throw new DomainError('The application breaks the rules below; nothing was stored.', violations);
    }
    const id = await deps.ids.take();
    const blockIds = await allocateBlockIds(null, kind.blockKeys(farm, request), deps.ids, id);
    const record = kind.view({ id, request, resolution, farm, exported: input.exported, now });
    const result = recordAnswerResult(kind, farm, { record, blockIds }, 1, 'created');
    last = { id, result };
    await store.commit(
      farm.meta,
      creationChange(kind, {
        id,
        record,
        request,
        blockIds,
        farmId: farm.meta.farmId,
        appliedAt,
        now,
        client: input.client.id,
        guards: guardsToWrite(
          state,
          kind.updatedHistory({ rows: history, farm, removed: null, added: request, reference }),
        ),
        idempotency: idem && { ...idem, outcome: result.outcome, answerJson: result.answerJson, version: 1 },
      }),
    );
    return result;
  }, deps.sleep);
}

/**
 * A new record's change: the record under its list key, its pointer (version 1, exported as the record says), the
 * history rows given, its first version (`created`, every field changed from nothing) and the request's idempotency
 * entry.
 */
export function creationChange<Req, Rec extends RecordView>(
  kind: Pick<RecordKind<Req, Rec>, 'listValue' | 'toWire' | 'toStored'>,
  c: {
    id: number;
    record: Rec;
    request: Req;
    /** The IdAjena of each block key (null: written as rows were before they were kept, as some tests reproduce). */
    blockIds: BlockIds | null;
    farmId: number;
    appliedAt: DateTime;
    now: DateTime;
    client: string;
    guards: Guard[];
    idempotency: RecordChange<unknown, Rec>['idempotency'];
  },
): RecordChange<unknown, Rec> {
  const rowKey = recordRowKey(c.farmId, c.appliedAt.toMillis(), c.id);
  return {
    id: c.id,
    write: { rowKey, product: kind.listValue(c.request), appliedAtMs: c.appliedAt.toMillis(), record: c.record },
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
      request: kind.toStored(c.request),
    },
    guards: c.guards,
    version: {
      version: 1,
      date: formatDateTime(c.now),
      client: c.client,
      kind: 'created',
      changes: fieldChanges(null, kind.toWire(c.request)),
    },
    idempotency: c.idempotency,
  };
}
