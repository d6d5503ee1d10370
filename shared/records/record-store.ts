import type { TableClient, TransactionAction } from '@azure/data-tables';
import { z } from 'zod';
import { RecordVersion, recordVersionSchema } from '../api/history-schemas';
import { StoredResponse } from '../idempotency/idempotency';
import { RecordOutcome, recordEtag, StoredAnswer } from './record-result';
import { isRestError } from '../store/azure-sdk';
import { despiteLostAnswer } from '../store/lost-answer';
import {
  inParallel,
  MAX_TRANSACTION_OPERATIONS,
  readRowsByKey,
  readRowsNearby,
  submitInChunks,
  TRANSACTIONS_IN_PARALLEL,
} from '../store/batched-query';
import { fromDocProps, toDocProps } from '../store/doc-entity';
import { odata } from '../store/odata';
import { TableName, TableStore } from '../store/tables';
import { acceptedBySiex, Claim, claimed, claimOf, ExportState, isExported, siexWasTold } from './export-state';
import { exportStateColumnNames, exportStateColumns, exportStateRow } from './export-state-row';
import { BlockIds, blockIdsColumn, blockIdsOf } from '../records/block-ids';
import {
  FarmKey,
  holdingPartition,
  idempotencyRowKey,
  listMarkerRowKey,
  pointerRowKey,
  recordRange,
  versionRange,
  versionRowKey,
} from './record-keys';

/**
 * What the core needs to know of a kind's record as the API answers it (its view): whether SIEX holds it as it is, and
 * when it last changed. Every kind's view carries these, as the NGSI-LD records of the seed do.
 */
export interface RecordView {
  exported: '0' | '1';
  dateCreated: string;
  dateModified: string;
}

/** Where a kind's records are stored, and how a record row of an older format is read as it is meant now. */
export interface RecordFormat<Rec> {
  table: TableName;
  /** The format `commit` writes (the row's `format` column; rows without one are format 1). */
  version: number;
  upgrade(record: Rec, format: number): Rec;
}

/**
 * A history row of the kind (phyto: one product on one enclosure, its applications by day), with the ETag it was read
 * under (none: not written yet). `doc` is the kind's own JSON document, kept in the `days` column phyto's rows always
 * had, so rows written before kinds existed read as they are.
 */
export interface Guard {
  rowKey: string;
  doc: unknown;
  etag?: string;
}

/** An answer as a request's Idempotency-Key keeps it, as the export's claim writes it (its HTTP reply). */
export type IdempotencyEntry = StoredResponse;

export interface RegistrationState {
  /** By row key; a history row not written yet is absent. */
  guards: Map<string, Guard>;
  idempotency: StoredAnswer | null;
}

/**
 * Where a record stands: `active` (listed, counted, amendable; while a deletion job sends its deletion to SIEX, that
 * job's claim holds it), `deleted` (gone from the list and the history rules; its pointer and versions stay for the
 * history).
 */
const recordStates = ['active', 'deleted'] as const;
type RecordState = (typeof recordStates)[number];

/** A record's pointer row: its row key, farm campaign, version and export state, read without the record itself. */
export interface RecordPointer {
  id: number;
  farmId: number;
  recordRowKey: string;
  /** What SIEX holds of the record, and which job last took it. */
  exportState: ExportState;
  /** Incremented by every change: the record's ETag. */
  version: number;
  state: RecordState;
  /** When the record was registered, `DD-MM-YYYY HH:mm:ss` Madrid (amendments keep it). */
  created: string;
  /** The IdAjena of each of its CUE blocks, by block key; null on rows written before they were kept (block-ids.ts). */
  blockIds: BlockIds | null;
  etag: string;
}

/** A record as amendments and deletions see it: its pointer and the registration request it stands for now. */
export interface StoredApplication<Req> {
  pointer: RecordPointer;
  request: Req;
}

/** A record as stored: deleted ones keep their pointer, without a request. */
export type StoredRecordState<Req> = StoredApplication<Req> | { pointer: RecordPointer; request: null };

export interface RecordKey {
  rowKey: string;
  product: string;
}

/** The keys of a farm campaign's records in a period, and the farm's list token when the period reaches it. */
export interface KeyScan {
  keys: RecordKey[];
  /** Changes when records are amended or deleted (not when they are added); present when the scan reaches now. */
  token?: string;
}

/** The record row to write: its key, what lists filter on, and the record as the API returns it. */
interface RecordRow<Rec> {
  rowKey: string;
  /** What lists filter on (phyto: the product code), kept in the `product` column rows always had. */
  product: string;
  appliedAtMs: number;
  record: Rec;
}

/** A record row as the export reads it: the record, and the IdAjena of its blocks (null: a row of the old way). */
export interface StoredRecord<Rec> {
  record: Rec;
  blockIds: BlockIds | null;
}

/**
 * One change of one record, written as a single entity-group transaction: the record row (written, replaced or
 * dropped), its pointer (created, or updated under the ETag read), the history rows of the enclosures it touches
 * (under theirs), its new version, the idempotency entry of the request and, when keys move, the list token.
 */
export interface RecordChange<Req, Rec> {
  id: number;
  write?: RecordRow<Rec>;
  /** A record row to delete: the old key after the application date changed, or the record on deletion. */
  drop?: string;
  pointer: {
    /** The ETag the pointer was read under; absent for a new record. */
    etag?: string;
    row: Omit<RecordPointer, 'id' | 'etag'>;
    /** The registration request the record stands for (null once deleted). */
    request: Req | null;
  };
  guards: Guard[];
  version: RecordVersion;
  idempotency: (StoredAnswer & { hash: string }) | null;
  /** The keys of the farm's records change otherwise than by a new record: per-process key indexes must re-read. */
  touchesKeys?: boolean;
}

/** A conflicting concurrent write (ETag mismatch, or a row created meanwhile): re-read and re-validate. */
export class WriteConflict extends Error {}

const pointerRow = z.object({
  farmId: z.coerce.number().int(),
  recordRowKey: z.string(),
  version: z.coerce.number().int().positive(),
  state: z.enum(recordStates),
  created: z.string(),
  etag: z.string(),
});

/**
 * The columns a pointer is read from: not the registration request the row also keeps (amendments read that), which
 * is most of its size.
 */
const POINTER_COLUMNS = [
  ...Object.keys(pointerRow.shape).filter((k) => k !== 'etag'),
  ...exportStateColumnNames,
  'blockIds' satisfies keyof ReturnType<typeof blockIdsColumn>,
];

/**
 * The rows one change writes, in one entity-group transaction (at most 100 actions: a change touching more enclosure
 * histories than that cannot be written in one). Pointer and history rows carry the ETags they were read under.
 */
export function changeActions<Req, Rec extends RecordView>(
  pk: string,
  change: RecordChange<Req, Rec>,
  format: number,
): TransactionAction[] {
  const actions: TransactionAction[] = [];
  if (change.drop && change.drop !== change.write?.rowKey) {
    actions.push(['delete', { partitionKey: pk, rowKey: change.drop }]);
  }
  if (change.write) {
    const w = change.write;
    const entity = {
      partitionKey: pk,
      rowKey: w.rowKey,
      recordId: change.id,
      product: w.product,
      appliedAt: w.appliedAtMs,
      exported: w.record.exported,
      format,
      ...blockIdsColumn(change.pointer.row.blockIds),
      ...toDocProps(w.record),
    };
    actions.push(change.drop === w.rowKey ? ['upsert', entity, 'Replace'] : ['create', entity]);
  }
  const { row, request, etag } = change.pointer;
  const pointer = {
    partitionKey: pk,
    rowKey: pointerRowKey(change.id),
    farmId: row.farmId,
    recordRowKey: row.recordRowKey,
    ...exportStateRow(row.exportState),
    version: row.version,
    state: row.state,
    created: row.created,
    ...blockIdsColumn(row.blockIds),
    ...(request ? toDocProps(request, 'q') : {}),
  };
  actions.push(etag ? ['update', pointer, 'Replace', { etag }] : ['create', pointer]);
  for (const g of change.guards) {
    const entity = { partitionKey: pk, rowKey: g.rowKey, days: JSON.stringify(g.doc) };
    actions.push(g.etag ? ['update', entity, 'Replace', { etag: g.etag }] : ['create', entity]);
  }
  actions.push([
    'create',
    {
      partitionKey: pk,
      rowKey: versionRowKey(change.id, change.version.version),
      ...toDocProps(change.version),
    },
  ]);
  if (change.idempotency) actions.push(['create', idempotencyEntity(pk, storedResponseOf(change.idempotency))]);
  if (change.touchesKeys) {
    actions.push([
      'upsert',
      { partitionKey: pk, rowKey: listMarkerRowKey(row.farmId), token: `${change.id}.${change.version.version}` },
      'Replace',
    ]);
  }
  return actions;
}

function pointerOf(row: Record<string, unknown>): RecordPointer {
  return {
    id: Number(String(row.rowKey).slice(2)),
    ...pointerRow.parse(row),
    exportState: exportStateColumns.parse(row),
    blockIds: blockIdsOf(row),
  };
}

/**
 * The columns an idempotency entry is stored with: the status, body and ETag header of the answer, as entries have
 * always been written (a deletion job's answer too, written with its claim), so every entry stored before the records
 * core reads as it is. It matches the interface's statuses (shared/http/record-reply.ts) without sharing them on
 * purpose: these numbers are a stored format, kept for good, which a change of the interface must not rewrite (nor
 * could the domain import the edge's table).
 */
const OUTCOME_STATUS: Readonly<Record<RecordOutcome, number>> = {
  created: 201,
  current: 200,
  deleted: 204,
  'deletion-started': 202,
};

/** An answer as its idempotency entry's columns keep it. */
export function storedResponseOf(answer: StoredAnswer & { hash: string }): IdempotencyEntry & { hash: string } {
  return {
    hash: answer.hash,
    requestHash: answer.requestHash,
    status: OUTCOME_STATUS[answer.outcome],
    body: answer.answerJson,
    ...(answer.version !== undefined ? { etag: recordEtag(answer.version) } : {}),
  };
}

/** An idempotency entry's columns, written now or before the records core, as the answer they keep. */
export function storedAnswerOf(entry: IdempotencyEntry): StoredAnswer {
  const outcome = (Object.keys(OUTCOME_STATUS) as RecordOutcome[]).find((o) => OUTCOME_STATUS[o] === entry.status);
  if (!outcome) throw new Error(`an idempotency entry holds no known answer (status ${entry.status})`);
  const version = entry.etag === undefined ? NaN : Number(entry.etag.replaceAll('"', ''));
  return {
    requestHash: entry.requestHash,
    outcome,
    answerJson: entry.body,
    ...(Number.isInteger(version) ? { version } : {}),
  };
}

function idempotencyOf(row: Record<string, unknown>): StoredAnswer {
  return storedAnswerOf({
    requestHash: String(row.requestHash),
    status: Number(row.status),
    body: fromDocProps<string>(row),
    ...(typeof row.etagHeader === 'string' ? { etag: row.etagHeader } : {}),
  });
}

function idempotencyEntity(
  pk: string,
  entry: IdempotencyEntry & { hash: string },
): { partitionKey: string; rowKey: string } & Record<string, unknown> {
  return {
    partitionKey: pk,
    rowKey: idempotencyRowKey(entry.hash),
    requestHash: entry.requestHash,
    status: entry.status,
    ...(entry.etag ? { etagHeader: entry.etag } : {}),
    ...toDocProps(entry.body),
  };
}

/**
 * The records of one kind in their table, one partition per holding: what every kind shares (the commit of one change,
 * pointers, versions, claims and export outcomes, list keys). `Req` is the kind's registration request as the pointer
 * keeps it, `Rec` its record as the API answers it; both are stored as JSON documents the store does not read.
 */
export class RecordStore<Req, Rec extends RecordView> {
  constructor(
    private readonly tables: TableStore,
    private readonly format: RecordFormat<Rec>,
  ) {}

  private table(): Promise<TableClient> {
    return this.tables.table(this.format.table);
  }

  /** A record row as the API answers it: rows of an older format read as they are meant. */
  private storedOf(row: Record<string, unknown>): StoredRecord<Rec> {
    return { record: this.recordOf(row), blockIds: blockIdsOf(row) };
  }

  private recordOf(row: Record<string, unknown>): Rec {
    return this.format.upgrade(fromDocProps<Rec>(row), Number(row.format ?? 1));
  }

  /**
   * What a change must read of the history, in as few round trips as the filter limit allows (one for up to 14 rows):
   * the history rows it names and the idempotency entry of the request, if it has a key.
   */
  async readRegistrationState(
    farm: FarmKey,
    guardRowKeys: string[],
    idemHash: string | null,
  ): Promise<RegistrationState> {
    const keys = [...(idemHash ? [idempotencyRowKey(idemHash)] : []), ...new Set(guardRowKeys)];
    const rows = await readRowsByKey(await this.table(), holdingPartition(farm), keys, keys.length);
    const state: RegistrationState = { guards: new Map(), idempotency: null };
    for (const row of rows) {
      const rk = String(row.rowKey);
      if (rk.startsWith('k~')) state.idempotency = idempotencyOf(row);
      else {
        state.guards.set(rk, { rowKey: rk, doc: JSON.parse(String(row.days)) as unknown, etag: String(row.etag) });
      }
    }
    return state;
  }

  /** A record's pointer and registration request (if it is this farm campaign's), with an idempotency entry: one query. */
  async readApplication(
    farm: FarmKey,
    id: number,
    idemHash: string | null,
  ): Promise<{ application: StoredRecordState<Req> | null; idempotency: StoredAnswer | null }> {
    const keys = [pointerRowKey(id), ...(idemHash ? [idempotencyRowKey(idemHash)] : [])];
    const rows = await readRowsByKey(await this.table(), holdingPartition(farm), keys);
    let application: StoredRecordState<Req> | null = null;
    let idempotency: StoredAnswer | null = null;
    for (const row of rows) {
      if (String(row.rowKey).startsWith('k~')) idempotency = idempotencyOf(row);
      else if (Number(row.farmId) === farm.farmId) {
        const pointer = pointerOf(row);
        // A deleted record keeps its pointer (its history is still read) but no longer its request.
        application =
          pointer.state === 'deleted' ? { pointer, request: null } : { pointer, request: fromDocProps<Req>(row, 'q') };
      }
    }
    return { application, idempotency };
  }

  /**
   * Writes one change of one record as a single entity-group transaction: either all of it exists afterwards or none
   * of it. The pointer and the history rows are written under the ETags read, so a concurrent change of the record or
   * of an enclosure's history makes this one fail with WriteConflict, to be re-read and re-validated.
   */
  async commit(farm: FarmKey, change: RecordChange<Req, Rec>): Promise<void> {
    const actions = changeActions(holdingPartition(farm), change, this.format.version);
    try {
      await (await this.table()).submitTransaction(actions);
    } catch (e) {
      if (isRestError(e, 409, 412, 404)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  /** One record as stored, by its row key, with the IdAjena of its blocks. */
  async readRecord(farm: FarmKey, recordRowKey: string): Promise<StoredRecord<Rec> | null> {
    return (await this.readRecords(farm, [recordRowKey])).get(recordRowKey) ?? null;
  }

  /**
   * Every version of a record of this farm campaign, oldest first, deleted or not (one query: its pointer and its
   * versions); null when the farm campaign has no such record.
   */
  async readHistory(farm: FarmKey, id: number): Promise<RecordVersion[] | null> {
    const { ge, lt } = versionRange(id);
    const pointer = pointerRowKey(id);
    const filter = odata`PartitionKey eq ${holdingPartition(farm)} and (RowKey eq ${pointer} or (RowKey ge ${ge} and RowKey lt ${lt}))`;
    let owned = false;
    const versions: RecordVersion[] = [];
    for await (const e of (await this.table()).listEntities<Record<string, unknown>>({ queryOptions: { filter } })) {
      if (e.rowKey === pointer) owned = Number(e.farmId) === farm.farmId;
      else versions.push(recordVersionSchema.parse(fromDocProps(e)));
    }
    return owned ? versions : null;
  }

  /**
   * The pointers of these records that are this farm campaign's and not deleted (another campaign's record is not
   * this farm's; a deleted one is no longer a record).
   */
  async readPointers(farm: FarmKey, ids: number[]): Promise<Map<number, RecordPointer>> {
    const rows = await readRowsNearby(await this.table(), holdingPartition(farm), ids.map(pointerRowKey), 8, {
      select: POINTER_COLUMNS,
    });
    return new Map(
      rows
        .filter((r) => Number(r.farmId) === farm.farmId)
        .map(pointerOf)
        .filter((p) => p.state !== 'deleted')
        .map((p) => [p.id, p]),
    );
  }

  /**
   * Gives a row of the old way its block ids (the migration of issue 23, item 2): its pointer and its record row in
   * one transaction, under the pointer's ETag, so a record changed meanwhile keeps what its change wrote (WriteConflict;
   * the ids taken for it are only lost numbers). Answers the pointer as it now is.
   */
  async setBlockIds(farm: FarmKey, pointer: RecordPointer, blockIds: BlockIds): Promise<RecordPointer> {
    const pk = holdingPartition(farm);
    const ids = blockIdsColumn(blockIds);
    try {
      const res = await (
        await this.table()
      ).submitTransaction([
        ['update', { partitionKey: pk, rowKey: pointerRowKey(pointer.id), ...ids }, 'Merge', { etag: pointer.etag }],
        ['update', { partitionKey: pk, rowKey: pointer.recordRowKey, ...ids }, 'Merge'],
      ]);
      return { ...pointer, blockIds, etag: res.subResponses[0]?.etag ?? '' };
    } catch (e) {
      if (isRestError(e, 409, 412, 404)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  /**
   * Marks records as taken by an export job, under the ETags read when they were checked: all or none. A record
   * exported or taken by another job in between makes this fail with WriteConflict, after giving back what it had
   * already taken (a transaction holds 100 rows, so a large job is claimed in several).
   */
  async claim(
    farm: FarmKey,
    pointers: RecordPointer[],
    claim: Claim,
    idempotency?: IdempotencyEntry & { hash: string },
  ): Promise<void> {
    if (pointers.length === 0) return;
    const table = await this.table();
    const pk = holdingPartition(farm);
    // Every move checked before the first write: a record no job may take refuses the whole claim, with nothing taken.
    const claimedState = new Map(pointers.map((p) => [p.id, claimed(p.exportState, claim)]));
    const taken: { pointer: RecordPointer; etag: string }[] = [];
    // The request's key is written with the first chunk (one operation of it), so its answer and the claim go together.
    const size = MAX_TRANSACTION_OPERATIONS;
    const first = idempotency ? size - 1 : size;
    const chunks = [pointers.slice(0, first)];
    for (let i = first; i < pointers.length; i += size) chunks.push(pointers.slice(i, i + size));
    const claimChunk = async (chunk: RecordPointer[], withKey: boolean) => {
      const etags = await despiteLostAnswer(
        async () => {
          const res = await table.submitTransaction([
            ...chunk.map((p): TransactionAction => [
              'update',
              { partitionKey: pk, rowKey: pointerRowKey(p.id), ...exportStateRow(claimedState.get(p.id)!) },
              'Merge',
              { etag: p.etag },
            ]),
            ...(withKey && idempotency ? [['create', idempotencyEntity(pk, idempotency)] as TransactionAction] : []),
          ]);
          // Sub-responses come in the order of the operations (they carry no row key).
          return chunk.map((_, k) => res.subResponses[k]?.etag ?? '');
        },
        // Landed if its rows name this job (a deletion's key would otherwise answer a job never created).
        async () => {
          const now = await this.readPointers(
            farm,
            chunk.map((p) => p.id),
          );
          const rows = chunk.map((p) => now.get(p.id));
          const took = rows.every((row) => row && claimOf(row.exportState)?.jobId === claim.jobId);
          return took ? rows.map((row) => row!.etag) : undefined;
        },
      );
      chunk.forEach((pointer, k) => taken.push({ pointer, etag: etags[k] ?? '' }));
    };
    try {
      // The first chunk alone: of two requests for the same records, the one that takes it goes on, the other stops
      // there. The rest in parallel, their order irrelevant since a conflict anywhere gives back all that was taken.
      await claimChunk(chunks[0]!, true);
      await inParallel(chunks.slice(1), TRANSACTIONS_IN_PARALLEL, (chunk) => claimChunk(chunk, false));
    } catch (e) {
      if (!isRestError(e, 409, 412, 404)) throw e;
      // Given back under the ETags this claim wrote: a row someone changed since is theirs, and is left alone.
      await Promise.allSettled(
        taken
          .filter(({ etag }) => etag !== '')
          .map(({ pointer, etag }) =>
            table.updateEntity(
              { partitionKey: pk, rowKey: pointerRowKey(pointer.id), ...exportStateRow(pointer.exportState) },
              'Merge',
              { etag },
            ),
          ),
      );
      throw new WriteConflict(e.message);
    }
  }

  /**
   * Forgets the answer a claim wrote under a request's key, when the job it names was not started after all (its
   * records lost to another request, or its queue unavailable): a retry under that key then starts anew instead of
   * being told of a job that never ran.
   */
  async forgetIdempotency(farm: FarmKey, hash: string): Promise<void> {
    const table = await this.table();
    await table.deleteEntity(holdingPartition(farm), idempotencyRowKey(hash)).catch((e: unknown) => {
      if (!isRestError(e, 404)) throw e;
    });
  }

  /**
   * Records a failed job may have sent to SIEX move to `outcome-unknown` (what is known kept beside it): exporting,
   * amending or deleting them is refused until their outcome is known. Written blind, the one column that says so
   * (export-state-row.ts): no read first, whatever the known state is.
   */
  async markOutcomeUnknown(farm: FarmKey, ids: number[], jobId: number): Promise<void> {
    await this.setOutcomeUnknownJob(farm, ids, jobId);
  }

  /** Their outcome is known now (SIEX said, or support checked): they move back to the known state, written blind. */
  async clearOutcomeUnknown(farm: FarmKey, ids: number[]): Promise<void> {
    await this.setOutcomeUnknownJob(farm, ids, 0);
  }

  private async setOutcomeUnknownJob(farm: FarmKey, ids: number[], jobId: number): Promise<void> {
    const pk = holdingPartition(farm);
    await submitInChunks(
      await this.table(),
      ids.map((id): TransactionAction => [
        'update',
        { partitionKey: pk, rowKey: pointerRowKey(id), outcomeUnknownJob: jobId },
        'Merge',
      ]),
    );
  }

  async readRecords(farm: FarmKey, recordRowKeys: string[]): Promise<Map<string, StoredRecord<Rec>>> {
    const rows = await readRowsNearby(await this.table(), holdingPartition(farm), recordRowKeys, 16);
    return new Map(rows.map((r) => [String(r.rowKey), this.storedOf(r)]));
  }

  /**
   * Records SIEX accepted: `exported` becomes "1" on the record and its pointer, and the record gains an `exported`
   * version (`re-exported` when SIEX had an earlier one). Applied once: a record already marked is left as it is, so
   * a redelivered job adds no second version.
   */
  async markExported(
    farm: FarmKey,
    accepted: { id: number; recordRowKey: string; record: Rec; blocks: number[] }[],
    job: { jobId: number; clientId: string; at: string },
  ): Promise<void> {
    const table = await this.table();
    const pk = holdingPartition(farm);
    const pointers = await this.readPointers(
      farm,
      accepted.map((a) => a.id),
    );
    // A record's three rows are one unit: it is marked whole or not at all, whichever transaction it falls in.
    const units: TransactionAction[][] = accepted.flatMap(
      ({ id, recordRowKey, record, blocks }): TransactionAction[][] => {
        const p = pointers.get(id);
        if (!p || isExported(p.exportState)) return [];
        const version = p.version + 1;
        const entry: RecordVersion = {
          version,
          date: job.at,
          client: job.clientId,
          kind: siexWasTold(p.exportState) ? 're-exported' : 'exported',
          jobId: job.jobId,
          changes: [{ field: 'exported', old: '0', new: '1' }],
        };
        return [
          [
            [
              'update',
              {
                partitionKey: pk,
                rowKey: recordRowKey,
                exported: '1',
                format: this.format.version,
                ...toDocProps({ ...record, exported: '1', dateModified: job.at }),
              },
              'Merge',
            ],
            [
              'update',
              {
                partitionKey: pk,
                rowKey: pointerRowKey(id),
                ...exportStateRow(acceptedBySiex(p.exportState, blocks)),
                version,
              },
              'Merge',
              { etag: p.etag },
            ],
            ['create', { partitionKey: pk, rowKey: versionRowKey(id, version), ...toDocProps(entry) }],
          ],
        ];
      },
    );
    // Records are independent of each other, and marking one is idempotent (its pointer says so): any order will do.
    await submitInChunks(table, units, TRANSACTIONS_IN_PARALLEL);
  }

  /**
   * Row keys of a farm campaign's records applied in a period (inclusive), newest first, with their product: what
   * counting needs; with the farm's list token when the period reaches the present.
   */
  async scanKeys(farm: FarmKey, fromMs?: number, toMs?: number): Promise<KeyScan> {
    const table = await this.table();
    const { ge, lt } = recordRange(farm.farmId, fromMs, toMs);
    const filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${ge} and RowKey lt ${lt}`;
    const scan: KeyScan = { keys: [] };
    const marker = listMarkerRowKey(farm.farmId);
    for await (const e of table.listEntities({ queryOptions: { filter, select: ['RowKey', 'product', 'token'] } })) {
      if (e.rowKey === marker) scan.token = String(e.token);
      else scan.keys.push({ rowKey: String(e.rowKey), product: String(e.product) });
    }
    return scan;
  }

  /** Row keys of a farm's records, newest first (every one, read from storage). */
  async listKeys(farm: FarmKey): Promise<string[]> {
    return (await this.scanKeys(farm)).keys.map((k) => k.rowKey);
  }

  /**
   * Full records of a farm campaign applied in a period (inclusive, either end open), newest first, of one product
   * when given: one partition query, for lists that filter on what the key index does not hold.
   */
  async readRecordsIn(
    farm: FarmKey,
    fromMs: number | undefined,
    toMs: number | undefined,
    product?: string,
  ): Promise<StoredRecord<Rec>[]> {
    const table = await this.table();
    const { ge, lt } = recordRange(farm.farmId, fromMs, toMs);
    let filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${ge} and RowKey lt ${lt}`;
    if (product) filter += odata` and product eq ${product}`;
    const marker = listMarkerRowKey(farm.farmId);
    const out: StoredRecord<Rec>[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      if (e.rowKey !== marker) out.push(this.storedOf(e));
    return out;
  }

  /** Full records whose row keys lie between two keys of `listKeys` (inclusive), newest first. */
  async readRange(farm: FarmKey, firstKey: string, lastKey: string, product?: string): Promise<StoredRecord<Rec>[]> {
    const table = await this.table();
    let filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${firstKey} and RowKey le ${lastKey}`;
    if (product) filter += odata` and product eq ${product}`;
    const out: StoredRecord<Rec>[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      out.push(this.storedOf(e));
    return out;
  }
}
