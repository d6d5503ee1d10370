import type { TableClient, TransactionAction } from '@azure/data-tables';
import { StoredAnswer } from './record-result';
import { isRestError } from '../store/azure-sdk';
import { readRowsByKey, readRowsNearby } from '../store/batched-query';
import { fromDocProps } from '../store/doc-entity';
import { odata } from '../store/odata';
import { TableName, TableStore } from '../store/tables';
import { BlockIds, blockIdsOf } from '../records/block-ids';
import {
  FarmKey,
  holdingPartition,
  idempotencyRowKey,
  listMarkerRowKey,
  pointerRowKey,
  recordRange,
  versionRange,
} from './record-keys';
import {
  changeActions,
  EXCERPT_COLUMNS,
  excerptsOf,
  Guard,
  idempotencyOf,
  POINTER_COLUMNS,
  pointerOf,
  RecordChange,
  RecordPointer,
  RecordView,
} from './record-rows';
import { RecordVersion, recordVersionRow } from './record-version';

/** Where a kind's records are stored, and how a record row of an older format is read as it is meant now. */
export interface RecordFormat<Rec> {
  table: TableName;
  /** The format `commit` writes (the row's `format` column; rows without one are format 1). */
  version: number;
  upgrade(record: Rec, format: number): Rec;
  /** What its record rows keep beside the record for the facts other kinds read (kind-entry.ts `Publication.excerpt`). */
  excerpts?(record: Rec): Readonly<Record<string, unknown>>;
}

/** An excerpt the facts of a topic read (kind-entry.ts `Publication.excerpt`): its key in a row, and how it is made. */
export interface ExcerptRead<Rec> {
  key: string;
  of: (record: Rec) => unknown;
}

export interface RegistrationState {
  /** By row key; a history row not written yet is absent. */
  guards: Map<string, Guard>;
  idempotency: StoredAnswer | null;
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

/** A record row as the export reads it: the record, and the IdAjena of its blocks (null: a row of the old way). */
export interface StoredRecord<Rec> {
  record: Rec;
  blockIds: BlockIds | null;
}

/** Azure Tables' most entities in one entity-group transaction. */
const MAX_TRANSACTION_ROWS = 100;

/** A conflicting concurrent write (ETag mismatch, or a row created meanwhile): re-read and re-validate. */
export class WriteConflict extends Error {}

/**
 * The records of one kind in their table, one partition per holding (record-rows.ts lays out their rows): what every
 * kind shares, the commit of one change and the reads of records, pointers, versions and list keys; what the export
 * writes on them is its own (export-marks.ts). `Req` is the kind's registration request as the pointer keeps it, `Rec`
 * its record as the API answers it; both are stored as JSON documents the store does not read.
 */
export class RecordStore<Req, Rec extends RecordView> {
  constructor(
    private readonly tables: TableStore,
    readonly format: RecordFormat<Rec>,
  ) {}

  /**
   * The kind's table in the account that holds the farm's rows (shared/store/farm-accounts.ts), which the export's
   * marks (export-marks.ts) write too.
   */
  table(farm: Pick<FarmKey, 'rea'>): Promise<TableClient> {
    return this.tables.farmTable(this.format.table, farm);
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
    const rows = await readRowsByKey(await this.table(farm), holdingPartition(farm), keys, keys.length);
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
    const rows = await readRowsByKey(await this.table(farm), holdingPartition(farm), keys);
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
    const actions = changeActions(holdingPartition(farm), change, this.format.version, (record) =>
      this.format.excerpts ? this.format.excerpts(record) : {},
    );
    try {
      await (await this.table(farm)).submitTransaction(actions);
    } catch (e) {
      if (isRestError(e, 409, 412, 404)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  /**
   * Every history row of a holding (`g~…`), with the ETag it was read under, and the stored request of every record of
   * it that is not deleted, with its farm campaign: what rebuilding the rows from the records reads (rebuild-history.ts),
   * rows first, so a change committed after them fails the rebuild's write instead of being counted out.
   */
  async readHoldingHistory(farm: Pick<FarmKey, 'rea'>): Promise<{
    rows: Map<string, Guard>;
    records: { farmId: number; request: Req }[];
  }> {
    const table = await this.table(farm);
    const pk = holdingPartition({ farmId: 0, ...farm });
    const rows = new Map<string, Guard>();
    const guards = odata`PartitionKey eq ${pk} and RowKey ge ${'g~'} and RowKey lt ${'g\u007f'}`;
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter: guards } }))
      rows.set(e.rowKey!, { rowKey: e.rowKey!, doc: JSON.parse(String(e.days)) as unknown, etag: e.etag });
    const records: { farmId: number; request: Req }[] = [];
    const pointers = odata`PartitionKey eq ${pk} and RowKey ge ${'i~'} and RowKey lt ${'i\u007f'}`;
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter: pointers } })) {
      const pointer = pointerOf(e);
      if (pointer.state !== 'deleted') records.push({ farmId: pointer.farmId, request: fromDocProps<Req>(e, 'q') });
    }
    return { rows, records };
  }

  /**
   * Writes a holding's history rows as `next` has them, under the ETags `read` has (a row in `read` and not in `next`
   * is deleted: no row is what counts nothing), in transactions of 100 rows. A row changed or created since it was read
   * fails the write with WriteConflict; the transactions before it stand, each row whole, and running the rebuild again
   * settles them all.
   */
  async writeHoldingHistory(
    farm: Pick<FarmKey, 'rea'>,
    read: ReadonlyMap<string, Guard>,
    next: ReadonlyMap<string, unknown>,
  ): Promise<void> {
    const pk = holdingPartition({ farmId: 0, ...farm });
    const actions: TransactionAction[] = [];
    for (const [rowKey, doc] of next) {
      const entity = { partitionKey: pk, rowKey, days: JSON.stringify(doc) };
      const etag = read.get(rowKey)?.etag;
      actions.push(etag ? ['update', entity, 'Replace', { etag }] : ['create', entity]);
    }
    const table = await this.table(farm);
    try {
      for (let i = 0; i < actions.length; i += MAX_TRANSACTION_ROWS)
        await table.submitTransaction(actions.slice(i, i + MAX_TRANSACTION_ROWS));
      // A transaction deletes unconditionally, so the rows no record counts in are deleted one by one, under their ETags.
      for (const [rowKey, guard] of read)
        if (!next.has(rowKey)) await table.deleteEntity(pk, rowKey, { etag: guard.etag });
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
    for await (const e of (await this.table(farm)).listEntities<Record<string, unknown>>({
      queryOptions: { filter },
    })) {
      if (e.rowKey === pointer) owned = Number(e.farmId) === farm.farmId;
      else versions.push(recordVersionRow.parse(fromDocProps(e)));
    }
    return owned ? versions : null;
  }

  /**
   * The pointers of these records that are this farm campaign's and not deleted (another campaign's record is not
   * this farm's; a deleted one is no longer a record).
   */
  async readPointers(farm: FarmKey, ids: number[]): Promise<Map<number, RecordPointer>> {
    const rows = await readRowsNearby(await this.table(farm), holdingPartition(farm), ids.map(pointerRowKey), 8, {
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

  async readRecords(farm: FarmKey, recordRowKeys: string[]): Promise<Map<string, StoredRecord<Rec>>> {
    const rows = await readRowsNearby(await this.table(farm), holdingPartition(farm), recordRowKeys, 16);
    return new Map(rows.map((r) => [String(r.rowKey), this.storedOf(r)]));
  }

  /**
   * Row keys of a farm campaign's records applied in a period (inclusive), newest first, with their product: what
   * counting needs; with the farm's list token when the period reaches the present.
   */
  async scanKeys(farm: FarmKey, fromMs?: number, toMs?: number): Promise<KeyScan> {
    const table = await this.table(farm);
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
    const table = await this.table(farm);
    const { ge, lt } = recordRange(farm.farmId, fromMs, toMs);
    let filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${ge} and RowKey lt ${lt}`;
    if (product) filter += odata` and product eq ${product}`;
    const marker = listMarkerRowKey(farm.farmId);
    const out: StoredRecord<Rec>[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      if (e.rowKey !== marker) out.push(this.storedOf(e));
    return out;
  }

  /**
   * What the facts of a topic read of every record of the holding, in all its farm campaigns, applied at `fromMs` or
   * later, with the farm campaign each is of (shared/records/record-facts.ts), newest first: one partition query. With
   * an excerpt, that query selects the excerpts' column alone, and the rows that keep none under its key (written
   * before it was kept, or under another version of it) are read whole and excerpted now; without, the records.
   */
  async readHoldingSources(
    farm: FarmKey,
    fromMs: number,
    excerpt?: ExcerptRead<Rec>,
  ): Promise<{ farmId: number; source: unknown }[]> {
    const table = await this.table(farm);
    const pk = holdingPartition(farm);
    const filter = odata`PartitionKey eq ${pk} and RowKey ge ${'r~'} and RowKey lt ${'r~~'} and appliedAt ge ${fromMs}`;
    const select = excerpt ? { select: ['RowKey', ...EXCERPT_COLUMNS] } : {};
    const rows: { rowKey: string; source?: unknown }[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter, ...select } })) {
      const rowKey = String(e.rowKey);
      if (rowKey.endsWith('~list')) continue;
      rows.push({ rowKey, source: excerpt ? excerptsOf(e)?.[excerpt.key] : this.recordOf(e) });
    }
    const whole = rows.filter((r) => r.source === undefined).map((r) => r.rowKey);
    if (excerpt && whole.length > 0) {
      const read = new Map((await readRowsNearby(table, pk, whole)).map((e) => [String(e.rowKey), e]));
      for (const r of rows) {
        const row = r.source === undefined ? read.get(r.rowKey) : undefined;
        if (row) r.source = excerpt.of(this.recordOf(row));
      }
    }
    // A row gone between the two reads (its record amended to another day, or deleted) states nothing now.
    return rows.flatMap((r) =>
      r.source === undefined ? [] : [{ farmId: Number(r.rowKey.slice(2, 12)), source: r.source }],
    );
  }

  /** Full records whose row keys lie between two keys of `listKeys` (inclusive), newest first. */
  async readRange(farm: FarmKey, firstKey: string, lastKey: string, product?: string): Promise<StoredRecord<Rec>[]> {
    const table = await this.table(farm);
    let filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${firstKey} and RowKey le ${lastKey}`;
    if (product) filter += odata` and product eq ${product}`;
    const out: StoredRecord<Rec>[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      out.push(this.storedOf(e));
    return out;
  }
}
