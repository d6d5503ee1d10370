import { RestError, TableClient, TransactionAction } from '@azure/data-tables';
import { PhytoRecord } from '../api/phyto-schemas';
import { fromDocProps, toDocProps } from '../store/doc-entity';
import { TABLES, TableStore } from '../store/tables';
import { PriorApplication } from './rule-context';
import { farmPartition, guardRowKey, idempotencyRowKey, pointerRowKey, recordRange, recordRowKey } from './phyto-keys';

/** Azure Table Storage accepts at most 15 comparisons in one filter. */
const MAX_COMPARISONS = 15;

export interface Guard {
  rowKey: string;
  idcp: number;
  prior: PriorApplication[];
  etag?: string;
}

export interface IdempotencyEntry {
  requestHash: string;
  status: number;
  body: string;
}

export interface RegistrationState {
  guards: Map<number, Guard>;
  idempotency: IdempotencyEntry | null;
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

const odata = (s: string) => s.replace(/'/g, "''");

export class PhytoStore {
  constructor(private readonly tables: TableStore) {}

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.phyto);
  }

  /**
   * What registration must read, in as few round trips as the filter limit allows (one for up to 14 locations): the
   * history guards of the product on each location and the idempotency entry of the request, if it has a key.
   */
  async readRegistrationState(farmId: number, product: string, idcps: number[], idemHash: string | null): Promise<RegistrationState> {
    const table = await this.table();
    const pk = farmPartition(farmId);
    const keys = [...(idemHash ? [idempotencyRowKey(idemHash)] : []), ...idcps.map((i) => guardRowKey(product, i))];
    const groups: string[][] = [];
    for (let i = 0; i < keys.length; i += MAX_COMPARISONS - 1) groups.push(keys.slice(i, i + MAX_COMPARISONS - 1));
    const rows = (
      await Promise.all(
        groups.map(async (group) => {
          const filter = `PartitionKey eq '${pk}' and (${group.map((k) => `RowKey eq '${odata(k)}'`).join(' or ')})`;
          const out: Record<string, unknown>[] = [];
          for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } })) out.push(e);
          return out;
        }),
      )
    ).flat();
    const state: RegistrationState = { guards: new Map(), idempotency: null };
    for (const row of rows) {
      const rk = String(row.rowKey);
      if (rk.startsWith('k~')) {
        state.idempotency = { requestHash: String(row.requestHash), status: Number(row.status), body: fromDocProps<string>(row) };
      } else {
        const idcp = Number(rk.slice(rk.lastIndexOf('~') + 1));
        state.guards.set(idcp, { rowKey: rk, idcp, prior: JSON.parse(String(row.prior)) as PriorApplication[], etag: String(row.etag) });
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
      ['create', { partitionKey: pk, rowKey, recordId: rec.id, product: rec.product, appliedAt: rec.appliedAtMs, exported: rec.exported ? '1' : '0', ...toDocProps(rec.record) }],
      ['create', { partitionKey: pk, rowKey: pointerRowKey(rec.id), recordRowKey: rowKey }],
    ];
    for (const g of guards) {
      const entity = { partitionKey: pk, rowKey: g.rowKey, prior: JSON.stringify(g.prior) };
      actions.push(g.etag ? ['update', entity, 'Replace', { etag: g.etag }] : ['create', entity]);
    }
    if (idempotency) {
      actions.push([
        'create',
        { partitionKey: pk, rowKey: idempotencyRowKey(idempotency.hash), requestHash: idempotency.requestHash, status: idempotency.status, ...toDocProps(idempotency.body) },
      ]);
    }
    try {
      await table.submitTransaction(actions);
    } catch (e) {
      if (e instanceof RestError && (e.statusCode === 409 || e.statusCode === 412)) throw new WriteConflict(e.message);
      throw e;
    }
  }

  /** Row keys (and product) of records applied in a period, newest first: what counting and paging need. */
  async listKeys(farmId: number, fromMs?: number, toMs?: number, product?: string): Promise<string[]> {
    const table = await this.table();
    const { ge, lt } = recordRange(fromMs, toMs);
    let filter = `PartitionKey eq '${farmPartition(farmId)}' and RowKey ge '${ge}' and RowKey lt '${lt}'`;
    if (product) filter += ` and product eq '${odata(product)}'`;
    const keys: string[] = [];
    for await (const e of table.listEntities({ queryOptions: { filter, select: ['RowKey'] } })) keys.push(String(e.rowKey));
    return keys;
  }

  /** Full records whose row keys lie between two keys of `listKeys` (inclusive), newest first. */
  async readRange(farmId: number, firstKey: string, lastKey: string, product?: string): Promise<PhytoRecord[]> {
    const table = await this.table();
    let filter = `PartitionKey eq '${farmPartition(farmId)}' and RowKey ge '${firstKey}' and RowKey le '${lastKey}'`;
    if (product) filter += ` and product eq '${odata(product)}'`;
    const out: PhytoRecord[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } })) out.push(fromDocProps<PhytoRecord>(e));
    return out;
  }
}
