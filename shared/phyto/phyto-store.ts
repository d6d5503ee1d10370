import type { TableClient, TransactionAction } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';
import { PhytoRecord } from '../api/phyto-schemas';
import { fromDocProps, toDocProps } from '../store/doc-entity';
import { StoredResponse } from '../idempotency/idempotency';
import { readRowsByKey, submitInChunks } from '../store/batched-query';
import { TABLES, TableStore } from '../store/tables';
import { PriorApplication } from './rule-context';
import { farmPartition, guardRowKey, idempotencyRowKey, pointerRowKey, recordRange, recordRowKey } from './phyto-keys';
import { odataEq, odataString } from '../store/odata';

export interface Guard {
  rowKey: string;
  idcp: number;
  prior: PriorApplication[];
  etag?: string;
}

export type IdempotencyEntry = StoredResponse;

export interface RegistrationState {
  guards: Map<number, Guard>;
  idempotency: IdempotencyEntry | null;
}

/** The export state of a record, kept on its id pointer row so export checks read small rows only. */
export interface RecordPointer {
  id: number;
  recordRowKey: string;
  exported: boolean;
  /** The last export job that took the record (0: none). */
  jobId: number;
  /** When that job took it (epoch ms; 0 for none, or for claims written before it was recorded). */
  claimedAt: number;
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
    farmId: number,
    product: string,
    idcps: number[],
    idemHash: string | null,
  ): Promise<RegistrationState> {
    const keys = [...(idemHash ? [idempotencyRowKey(idemHash)] : []), ...idcps.map((i) => guardRowKey(product, i))];
    const rows = await readRowsByKey(await this.table(), farmPartition(farmId), keys, keys.length);
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
        const idcp = Number(rk.slice(rk.lastIndexOf('~') + 1));
        state.guards.set(idcp, {
          rowKey: rk,
          idcp,
          prior: JSON.parse(String(row.prior)) as PriorApplication[],
          etag: String(row.etag),
        });
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
    farmId: number,
    rec: NewRecord,
    guards: Guard[],
    idempotency: (IdempotencyEntry & { hash: string }) | null,
  ): Promise<void> {
    const table = await this.table();
    const pk = farmPartition(farmId);
    const rowKey = recordRowKey(rec.appliedAtMs, rec.id);
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
          recordRowKey: rowKey,
          exported: rec.exported ? '1' : '0',
          jobId: 0,
        },
      ],
    ];
    for (const g of guards) {
      const entity = { partitionKey: pk, rowKey: g.rowKey, prior: JSON.stringify(g.prior) };
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

  async readPointers(farmId: number, ids: number[]): Promise<Map<number, RecordPointer>> {
    const rows = await readRowsByKey(await this.table(), farmPartition(farmId), ids.map(pointerRowKey));
    return new Map(
      rows.map((r) => {
        const id = Number(String(r.rowKey).slice(2));
        return [
          id,
          {
            id,
            recordRowKey: String(r.recordRowKey),
            exported: r.exported === '1',
            jobId: Number(r.jobId ?? 0),
            claimedAt: Number(r.claimedAt ?? 0),
            outcomeUnknownJob: Number(r.outcomeUnknownJob ?? 0),
            etag: String(r.etag),
          },
        ];
      }),
    );
  }

  /**
   * Marks records as taken by an export job, under the ETags read when they were checked: all or none. A record
   * exported or taken by another job in between makes this fail with WriteConflict, after giving back what it had
   * already taken (a transaction holds 100 rows, so a large job is claimed in several).
   */
  async claim(farmId: number, pointers: RecordPointer[], jobId: number, claimedAt: number): Promise<void> {
    const table = await this.table();
    const pk = farmPartition(farmId);
    const taken: { pointer: RecordPointer; etag: string }[] = [];
    try {
      for (let i = 0; i < pointers.length; i += 100) {
        const chunk = pointers.slice(i, i + 100);
        const res = await table.submitTransaction(
          chunk.map((p): TransactionAction => [
            'update',
            { partitionKey: pk, rowKey: pointerRowKey(p.id), jobId, claimedAt },
            'Merge',
            { etag: p.etag },
          ]),
        );
        // Sub-responses come in the order of the operations (they carry no row key).
        chunk.forEach((pointer, k) => taken.push({ pointer, etag: res.subResponses[k]?.etag ?? '' }));
      }
    } catch (e) {
      if (!isRestError(e, 409, 412, 404)) throw e;
      // Given back under the ETags this claim wrote: a row someone changed since is theirs, and is left alone.
      await Promise.allSettled(
        taken
          .filter(({ etag }) => etag !== '')
          .map(({ pointer, etag }) =>
            table.updateEntity(
              {
                partitionKey: pk,
                rowKey: pointerRowKey(pointer.id),
                jobId: pointer.jobId,
                claimedAt: pointer.claimedAt,
              },
              'Merge',
              { etag },
            ),
          ),
      );
      throw new WriteConflict(e.message);
    }
  }

  /** Records a failed job may have sent to SIEX: exporting them again is refused until their outcome is known. */
  async markOutcomeUnknown(farmId: number, ids: number[], jobId: number): Promise<void> {
    await this.setOutcomeUnknownJob(farmId, ids, jobId);
  }

  /** Their outcome is known now (SIEX said, or support checked): the block on exporting them again is lifted. */
  async clearOutcomeUnknown(farmId: number, ids: number[]): Promise<void> {
    await this.setOutcomeUnknownJob(farmId, ids, 0);
  }

  private async setOutcomeUnknownJob(farmId: number, ids: number[], jobId: number): Promise<void> {
    const pk = farmPartition(farmId);
    await submitInChunks(
      await this.table(),
      ids.map((id): TransactionAction => [
        'update',
        { partitionKey: pk, rowKey: pointerRowKey(id), outcomeUnknownJob: jobId },
        'Merge',
      ]),
    );
  }

  async readRecords(farmId: number, recordRowKeys: string[]): Promise<Map<string, PhytoRecord>> {
    const rows = await readRowsByKey(await this.table(), farmPartition(farmId), recordRowKeys, 16);
    return new Map(rows.map((r) => [String(r.rowKey), fromDocProps<PhytoRecord>(r)]));
  }

  /** Records SIEX accepted: `exported` becomes "1" on the record and its pointer, in transactions of 50 records. */
  async markExported(
    farmId: number,
    accepted: { id: number; recordRowKey: string; record: PhytoRecord }[],
    modified: string,
  ): Promise<void> {
    const table = await this.table();
    const pk = farmPartition(farmId);
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
  async scanKeys(farmId: number, fromMs?: number, toMs?: number): Promise<RecordKey[]> {
    const table = await this.table();
    const { ge, lt } = recordRange(fromMs, toMs);
    const filter = `${odataEq('PartitionKey', farmPartition(farmId))} and RowKey ge ${odataString(ge)} and RowKey lt ${odataString(lt)}`;
    const keys: RecordKey[] = [];
    for await (const e of table.listEntities({ queryOptions: { filter, select: ['RowKey', 'product'] } })) {
      keys.push({ rowKey: String(e.rowKey), product: String(e.product) });
    }
    return keys;
  }

  /** Row keys of a farm's records, newest first (every one, read from storage). */
  async listKeys(farmId: number): Promise<string[]> {
    return (await this.scanKeys(farmId)).map((k) => k.rowKey);
  }

  /** Full records whose row keys lie between two keys of `listKeys` (inclusive), newest first. */
  async readRange(farmId: number, firstKey: string, lastKey: string, product?: string): Promise<PhytoRecord[]> {
    const table = await this.table();
    let filter = `${odataEq('PartitionKey', farmPartition(farmId))} and RowKey ge ${odataString(firstKey)} and RowKey le ${odataString(lastKey)}`;
    if (product) filter += ` and ${odataEq('product', product)}`;
    const out: PhytoRecord[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      out.push(fromDocProps<PhytoRecord>(e));
    return out;
  }
}
