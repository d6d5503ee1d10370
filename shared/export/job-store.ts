import type { TableClient, TransactionAction } from '@azure/data-tables';
import { z } from 'zod';
import { isRestError } from '../store/azure-sdk';
import { MAX_TRANSACTION_OPERATIONS, submitInChunks, TRANSACTIONS_IN_PARALLEL } from '../store/batched-query';
import { despiteLostAnswer } from '../store/lost-answer';
import { odataEq } from '../store/odata';
import { TABLES, TableStore } from '../store/tables';
import {
  Job,
  JobBatch,
  jobBatchSchema,
  JobError,
  jobErrorSchema,
  JobItem,
  jobItemSchema,
  JobMeta,
  jobMetaSchema,
  ReconcileMove,
} from './job';
import { Transition } from './job-status';
import { RecordRef, refKey } from './record-ref';

/**
 * Export jobs in the `jobs` table, one partition per job so the whole job is read with one partition query:
 * `meta` (status and counts), `r~<record id>` for a record of the legacy kind (record-ref.ts) and `r~<type>~<record
 * id>` for another kind's record (one row per record and its outcome), `b~<n>` (one row per SIEX batch: which records it holds, its idempotency key
 * and SIEX request id, written before it is sent). Every row is parsed by the job's schemas on the way in and encoded
 * by them on the way out.
 */
const jsonText = <T extends z.ZodType>(schema: T) =>
  z.codec(z.string(), schema, {
    decode: (text) => JSON.parse(text) as z.input<T>,
    encode: (value) => JSON.stringify(value),
  });
const errorText = z.codec(z.string(), jobErrorSchema.nullable(), {
  decode: (text) => (text === '' ? null : (JSON.parse(text) as JobError)),
  encode: (error) => (error ? JSON.stringify(error) : ''),
});

const metaRow = jobMetaSchema.extend({
  error: errorText,
  lastError: errorText,
  webhooks: jsonText(jobMetaSchema.shape.webhooks.unwrap()).default([]),
});
/** A job's record and batch rows, whose records of the legacy kind name no kind. */
function jobRows(legacyType: string) {
  const batch = jobBatchSchema(legacyType);
  const item = jobItemSchema(legacyType);
  return {
    item,
    // The column keeps the name it had when batches held records of one kind only.
    batch: batch.omit({ n: true, records: true }).extend({ recordIds: jsonText(batch.shape.records) }),
    itemRow: item.extend({
      siexBlocks: jsonText(z.array(z.number().int().positive())),
      // Rows of jobs created before bodies were kept have no such column.
      siexBodies: jsonText(item.shape.siexBodies.unwrap()).optional(),
    }),
  };
}

/**
 * What may change on the status row besides the status, which only moves through `transition`; `reconcile` moves
 * only as RECONCILE_TRANSITIONS allows.
 */
/** The export queue's message: the job, and the correlation id its work logs under (the job's row keeps it too). */
export interface ExportMessage {
  jobId: number;
  correlationId?: string;
}

export type MetaChanges = Partial<Omit<JobMeta, 'jobId' | 'status' | 'reconcile'>> & { reconcile?: ReconcileMove };

function metaChangesRow({ reconcile, ...changes }: MetaChanges): Record<string, unknown> {
  return z.encode(metaRow.partial(), { ...changes, ...(reconcile ? { reconcile: reconcile.to } : {}) });
}

/** The items that share the status row's transaction: all the operations it holds but the status row's. */
const ITEMS_BESIDE_META = MAX_TRANSACTION_OPERATIONS - 1;

const jobPk = (jobId: number) => `j${jobId}`;
const batchRk = (n: number) => `b~${String(n).padStart(4, '0')}`;

/** The record a job item stands for. */
export const refOf = (item: Pick<JobItem, 'type' | 'recordId'>): RecordRef => ({ type: item.type, id: item.recordId });

function toMeta(e: Record<string, unknown>): Job['meta'] {
  return { ...metaRow.parse(e), etag: String(e.etag) };
}

export class JobStore {
  private readonly rows: ReturnType<typeof jobRows>;

  /** `legacyType`: the kind every job held before jobs held several, whose records the rows name by id alone. */
  constructor(
    private readonly tables: TableStore,
    readonly legacyType: string,
  ) {
    this.rows = jobRows(legacyType);
  }

  /** A record's row key: a record of the legacy kind keeps the one rows had before jobs held several kinds. */
  private itemRk({ type, id }: RecordRef): string {
    return `r~${type === this.legacyType ? '' : `${type}~`}${String(id).padStart(10, '0')}`;
  }

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.jobs);
  }

  /**
   * Creates the job: status row first (in the first transaction), then the record rows. 409 if a status row of this job
   * id exists already (a job settled as abandoned before it was created), unless it is this call's own: job ids are
   * never handed out twice, so a status row with this call's creation time and record count was written by a try
   * whose answer was lost, and whose retry by the SDK was refused. The record rows are then written again as upserts,
   * whichever transaction it was.
   */
  async create(
    meta: JobMeta,
    items: {
      type?: string;
      recordId: number;
      recordRowKey: string;
      siexBlocks?: number[];
      siexBodies?: Record<string, Record<string, unknown>>;
    }[],
  ): Promise<void> {
    const pk = jobPk(meta.jobId);
    const table = await this.table();
    const itemRows = items.map((i) => {
      const item = this.rows.item.parse({ ...i, state: 'pending', code: '', message: '' });
      return { partitionKey: pk, rowKey: this.itemRk(refOf(item)), ...z.encode(this.rows.itemRow, item) };
    });
    await despiteLostAnswer(
      async () => {
        const [first, rest] = [itemRows.slice(0, ITEMS_BESIDE_META), itemRows.slice(ITEMS_BESIDE_META)];
        // The status row lands first, with the first items, as it always did; the other items in any order after it.
        await submitInChunks(table, [
          ['create', { partitionKey: pk, rowKey: 'meta', ...z.encode(metaRow, meta) }],
          ...first.map((row): TransactionAction => ['create', row]),
        ]);
        await submitInChunks(
          table,
          rest.map((row): TransactionAction => ['create', row]),
          TRANSACTIONS_IN_PARALLEL,
        );
        return true;
      },
      async () => {
        const existing = await this.meta(meta.jobId);
        if (existing?.createdAt !== meta.createdAt || existing.total !== meta.total) return undefined;
        await submitInChunks(
          table,
          itemRows.map((row): TransactionAction => ['upsert', row, 'Replace']),
          TRANSACTIONS_IN_PARALLEL,
        );
        return true;
      },
    );
  }

  async load(jobId: number): Promise<Job | null> {
    const table = await this.table();
    let meta: Job['meta'] | undefined;
    const items = new Map<string, JobItem>();
    const batches: JobBatch[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({
      queryOptions: { filter: odataEq('PartitionKey', jobPk(jobId)) },
    })) {
      const rk = String(e.rowKey);
      if (rk === 'meta') meta = toMeta(e);
      else if (rk.startsWith('r~')) {
        const item = this.rows.itemRow.parse(e);
        items.set(refKey(refOf(item)), item);
      } else if (rk.startsWith('b~')) {
        const { recordIds, ...batch } = this.rows.batch.parse(e);
        batches.push({ n: Number(rk.slice(2)), ...batch, records: recordIds });
      }
    }
    return meta ? { meta, items, batches: batches.sort((a, b) => a.n - b.n) } : null;
  }

  /** Only the status row: what job status and access checks need. */
  async meta(jobId: number): Promise<Job['meta'] | null> {
    const table = await this.table();
    try {
      return toMeta(await table.getEntity<Record<string, unknown>>(jobPk(jobId), 'meta'));
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  async updateMeta(jobId: number, changes: MetaChanges): Promise<void> {
    await this.merge(jobId, metaChangesRow(changes));
  }

  /**
   * Moves the job to another status. With `etag`, only if the status row is unchanged since it was read: false when
   * it changed meanwhile (another process moved the job first).
   */
  async transition(jobId: number, move: Transition, changes: MetaChanges = {}, etag?: string): Promise<boolean> {
    try {
      await this.merge(jobId, { ...metaChangesRow(changes), status: move.to }, etag);
      return true;
    } catch (e) {
      if (etag && isRestError(e, 412)) return false;
      throw e;
    }
  }

  private async merge(jobId: number, row: Record<string, unknown>, etag?: string): Promise<void> {
    const table = await this.table();
    await table.updateEntity(
      { partitionKey: jobPk(jobId), rowKey: 'meta', ...row },
      'Merge',
      etag ? { etag } : undefined,
    );
  }

  async saveItems(jobId: number, items: readonly JobItem[]): Promise<void> {
    const pk = jobPk(jobId);
    await submitInChunks(
      await this.table(),
      items.map((i): TransactionAction => [
        'update',
        { partitionKey: pk, rowKey: this.itemRk(refOf(i)), state: i.state, code: i.code, message: i.message },
        'Merge',
      ]),
      // Each item row is written whole and alone: their order does not matter.
      TRANSACTIONS_IN_PARALLEL,
    );
  }

  async saveBatches(jobId: number, batches: readonly JobBatch[]): Promise<void> {
    const pk = jobPk(jobId);
    await submitInChunks(
      await this.table(),
      batches.map(({ records, ...b }): TransactionAction => [
        'upsert',
        { partitionKey: pk, rowKey: batchRk(b.n), ...z.encode(this.rows.batch, { ...b, recordIds: records }) },
        'Replace',
      ]),
    );
  }
}
