import type { TableClient, TransactionAction } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';
import { PhytoRecord } from '../api/phyto-schemas';
import { fromDocProps, toDocProps } from '../store/doc-entity';
import { StoredResponse } from '../idempotency/idempotency';
import { readRowsByKey, submitInChunks } from '../store/batched-query';
import { TABLES, TableStore } from '../store/tables';
import { DayCounts, dayCountsSchema } from './application-history';
import {
  FarmKey,
  guardRowKey,
  holdingPartition,
  idempotencyRowKey,
  pointerRowKey,
  recordRange,
  recordRowKey,
} from './phyto-keys';
import { odata } from '../store/odata';

/** The history row of one product on one enclosure, with the ETag it was read under (none: not written yet). */
export interface Guard {
  rowKey: string;
  /** The enclosure's SIGPAC code. */
  sigpac: string;
  days: DayCounts;
  etag?: string;
}

export type IdempotencyEntry = StoredResponse;

export interface RegistrationState {
  /** By SIGPAC code; an enclosure with no row yet has none. */
  guards: Map<string, Guard>;
  idempotency: IdempotencyEntry | null;
}

/** The export state of a record, kept on its id pointer row so export checks read small rows only. */
export interface RecordPointer {
  id: number;
  recordRowKey: string;
  exported: boolean;
  /** The last export job that took the record (0: none). */
  jobId: number;
  /** A job that sent the record to SIEX without learning the outcome (0: none): exporting it again is refused. */
  outcomeUnknownJob: number;
  etag: string;
}

export interface RecordKey {
  rowKey: string;
  product: string;
}

export interface NewRecord {
  record: PhytoRecord;
  id: number;
  product: string;
  appliedAtMs: number;
  exported: boolean;
}

/** A conflicting concurrent write (ETag mismatch, or a row created meanwhile): re-read and re-validate. */
export class WriteConflict extends Error {}

/** What registration reads and writes (PhytoStore implements it). */
export type RegistrationStore = Pick<PhytoStore, 'readRegistrationState' | 'insert'>;

export class PhytoStore {
  constructor(private readonly tables: TableStore) {}

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.phyto);
  }

  /**
   * What registration must read, in as few round trips as the filter limit allows (one for up to 14 locations): the
   * history guards of the product on each location and the idempotency entry of the request, if it has a key.
   */
  async readRegistrationState(
    farm: FarmKey,
    product: string,
    sigpacs: string[],
    idemHash: string | null,
  ): Promise<RegistrationState> {
    const keys = [...(idemHash ? [idempotencyRowKey(idemHash)] : []), ...sigpacs.map((c) => guardRowKey(product, c))];
    const rows = await readRowsByKey(await this.table(), holdingPartition(farm), keys, keys.length);
    const state: RegistrationState = { guards: new Map(), idempotency: null };
    for (const row of rows) {
      const rk = String(row.rowKey);
      if (rk.startsWith('k~')) {
        state.idempotency = {
          requestHash: String(row.requestHash),
          status: Number(row.status),
          body: fromDocProps<string>(row),
        };
      } else {
        const sigpac = rk.slice(rk.lastIndexOf('~') + 1);
        const days = dayCountsSchema.parse(JSON.parse(String(row.days)));
        state.guards.set(sigpac, { rowKey: rk, sigpac, days, etag: String(row.etag) });
      }
    }
    return state;
  }

  /**
   * Stores the record, its id pointer, the updated history of each location and the idempotency entry in one
   * entity-group transaction: either all of it exists afterwards or none of it. History rows are updated under their
   * ETag, so a concurrent registration on the same location makes this one retry instead of both passing the checks.
   */
  async insert(
    farm: FarmKey,
    rec: NewRecord,
    guards: Guard[],
    idempotency: (IdempotencyEntry & { hash: string }) | null,
  ): Promise<void> {
    const table = await this.table();
    const pk = holdingPartition(farm);
    const rowKey = recordRowKey(farm.farmId, rec.appliedAtMs, rec.id);
    const actions: TransactionAction[] = [
      [
        'create',
        {
          partitionKey: pk,
          rowKey,
          recordId: rec.id,
          product: rec.product,
          appliedAt: rec.appliedAtMs,
          exported: rec.exported ? '1' : '0',
          ...toDocProps(rec.record),
        },
      ],
      [
        'create',
        {
          partitionKey: pk,
          rowKey: pointerRowKey(rec.id),
          farmId: farm.farmId,
          recordRowKey: rowKey,
          exported: rec.exported ? '1' : '0',
          jobId: 0,
        },
      ],
    ];
    for (const g of guards) {
      const entity = { partitionKey: pk, rowKey: g.rowKey, days: JSON.stringify(g.days) };
      actions.push(g.etag ? ['update', entity, 'Replace', { etag: g.etag }] : ['create', entity]);
    }
    if (idempotency) {
      actions.push([
        'create',
        {
          partitionKey: pk,
          rowKey: idempotencyRowKey(idempotency.hash),
          requestHash: idempotency.requestHash,
          status: idempotency.status,
          ...toDocProps(idempotency.body),
        },
      ]);
    }
    try {
      await table.submitTransaction(actions);
    } catch (e) {
      if (isRestError(e, 409, 412)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  /** The response an Idempotency-Key already got on this farm, for operations whose write is not one transaction. */
  async readIdempotency(farm: FarmKey, hash: string): Promise<IdempotencyEntry | null> {
    const [row] = await readRowsByKey(await this.table(), holdingPartition(farm), [idempotencyRowKey(hash)]);
    return row
      ? { requestHash: String(row.requestHash), status: Number(row.status), body: fromDocProps<string>(row) }
      : null;
  }

  async writeIdempotency(farm: FarmKey, hash: string, entry: IdempotencyEntry): Promise<void> {
    const table = await this.table();
    await table.upsertEntity(
      {
        partitionKey: holdingPartition(farm),
        rowKey: idempotencyRowKey(hash),
        requestHash: entry.requestHash,
        status: entry.status,
        ...toDocProps(entry.body),
      },
      'Replace',
    );
  }

  /** The pointers of these records, those of this farm campaign only (another campaign's record is not this farm's). */
  async readPointers(farm: FarmKey, ids: number[]): Promise<Map<number, RecordPointer>> {
    const rows = await readRowsByKey(await this.table(), holdingPartition(farm), ids.map(pointerRowKey));
    return new Map(
      rows
        .filter((r) => Number(r.farmId) === farm.farmId)
        .map((r) => {
          const id = Number(String(r.rowKey).slice(2));
          return [
            id,
            {
              id,
              recordRowKey: String(r.recordRowKey),
              exported: r.exported === '1',
              jobId: Number(r.jobId ?? 0),
              outcomeUnknownJob: Number(r.outcomeUnknownJob ?? 0),
              etag: String(r.etag),
            },
          ];
        }),
    );
  }

  /**
   * Marks records as taken by an export job, under the ETags read when they were checked: a record exported or taken
   * by another job in between makes this fail with WriteConflict. Transactions hold 100 rows, so a large job is
   * claimed in several steps; the caller settles its job on a conflict, which releases what was already claimed.
   */
  async claim(farm: FarmKey, pointers: RecordPointer[], jobId: number): Promise<void> {
    const table = await this.table();
    const pk = holdingPartition(farm);
    try {
      await submitInChunks(
        table,
        pointers.map((p): TransactionAction => [
          'update',
          { partitionKey: pk, rowKey: pointerRowKey(p.id), jobId },
          'Merge',
          { etag: p.etag },
        ]),
      );
    } catch (e) {
      if (isRestError(e, 409, 412, 404)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  async markOutcomeUnknown(farm: FarmKey, ids: number[], jobId: number): Promise<void> {
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

  async readRecords(farm: FarmKey, recordRowKeys: string[]): Promise<Map<string, PhytoRecord>> {
    const rows = await readRowsByKey(await this.table(), holdingPartition(farm), recordRowKeys, 16);
    return new Map(rows.map((r) => [String(r.rowKey), fromDocProps<PhytoRecord>(r)]));
  }

  /** Records SIEX accepted: `exported` becomes "1" on the record and its pointer, in transactions of 50 records. */
  async markExported(
    farm: FarmKey,
    accepted: { id: number; recordRowKey: string; record: PhytoRecord }[],
    modified: string,
  ): Promise<void> {
    const table = await this.table();
    const pk = holdingPartition(farm);
    const actions: TransactionAction[] = accepted.flatMap(({ id, recordRowKey, record }): TransactionAction[] => [
      [
        'update',
        {
          partitionKey: pk,
          rowKey: recordRowKey,
          exported: '1',
          ...toDocProps({ ...record, exported: '1', dateModified: modified }),
        },
        'Merge',
      ],
      ['update', { partitionKey: pk, rowKey: pointerRowKey(id), exported: '1' }, 'Merge'],
    ]);
    await submitInChunks(table, actions);
  }

  /** Row keys of records applied in a period (inclusive), newest first, with their product: what counting needs. */
  async scanKeys(farm: FarmKey, fromMs?: number, toMs?: number): Promise<RecordKey[]> {
    const table = await this.table();
    const { ge, lt } = recordRange(farm.farmId, fromMs, toMs);
    const filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${ge} and RowKey lt ${lt}`;
    const keys: RecordKey[] = [];
    for await (const e of table.listEntities({ queryOptions: { filter, select: ['RowKey', 'product'] } })) {
      keys.push({ rowKey: String(e.rowKey), product: String(e.product) });
    }
    return keys;
  }

  /** Row keys of a farm's records, newest first (every one, read from storage). */
  async listKeys(farm: FarmKey): Promise<string[]> {
    return (await this.scanKeys(farm)).map((k) => k.rowKey);
  }

  /** Full records whose row keys lie between two keys of `listKeys` (inclusive), newest first. */
  async readRange(farm: FarmKey, firstKey: string, lastKey: string, product?: string): Promise<PhytoRecord[]> {
    const table = await this.table();
    let filter = odata`PartitionKey eq ${holdingPartition(farm)} and RowKey ge ${firstKey} and RowKey le ${lastKey}`;
    if (product) filter += odata` and product eq ${product}`;
    const out: PhytoRecord[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      out.push(fromDocProps<PhytoRecord>(e));
    return out;
  }
}
