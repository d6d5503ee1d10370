import { createHash } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { z } from 'zod';
import { isRestError } from '../store/azure-sdk';
import { odata } from '../store/odata';
import { TABLES, TableStore } from '../store/tables';

/**
 * The watch list of export jobs that still need the worker, in the `jobs` table: one row per such job (created when
 * the export starts, before the job itself; removed once nothing is left to do), in one partition, so the sweeper
 * finds every job that stopped moving with one query (`due` in the past). A row is also the job's lease: `owner` is
 * the delivery running the job, `due` the moment its lease ends unless it renews it (its heartbeat); every change is
 * made under the row's ETag, so two deliveries can never both hold it.
 *
 * The partition is named after the export queue the app sends to: apps sharing one storage account (the tests'
 * private pipelines, each with queues of its own) each sweep only the jobs they queue themselves.
 */
export interface WatchRow {
  jobId: number;
  /** The delivery holding the lease, '' for none. */
  owner: string;
  /** Epoch ms: when the lease ends, or when the sweeper should look at the job again. */
  due: number;
  /** How many times the gateway has asked SIEX about unknown outcomes (spaces the next try). */
  tries: number;
  etag: string;
}

/** `due` is stored as a fixed-width string: the sweeper's range filter then compares text, never number types. */
const dueText = z.codec(z.string().regex(/^\d{16}$/), z.number().int().nonnegative(), {
  decode: (text) => Number(text),
  encode: (ms) => String(ms).padStart(16, '0'),
});
const rowSchema = z.object({ owner: z.string(), due: dueText, tries: z.number().int() });
const encode = (row: Omit<WatchRow, 'jobId' | 'etag'>) => z.encode(rowSchema, row);

const rowKey = (jobId: number) => String(jobId).padStart(12, '0');

/** The watch partition for the queue at this address. */
function watchPartition(queueUrl: string): string {
  return `w~${createHash('sha256').update(queueUrl).digest('hex').slice(0, 16)}`;
}

export class WatchStore {
  private pk: string | undefined;

  /** `queueUrl` is read on first use (building the queue client loads its SDK, which only exports need). */
  constructor(
    private readonly tables: TableStore,
    private readonly queueUrl: () => string,
  ) {}

  private partition(): string {
    return (this.pk ??= watchPartition(this.queueUrl()));
  }

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.jobs);
  }

  private parse(e: Record<string, unknown>): WatchRow {
    return { jobId: Number(e.rowKey), ...rowSchema.parse(e), etag: String(e.etag) };
  }

  /** Puts a job on the list, free, to be looked at by `due` at the latest. */
  async add(jobId: number, due: number): Promise<void> {
    const table = await this.table();
    const entity = { partitionKey: this.partition(), rowKey: rowKey(jobId), ...encode({ owner: '', due, tries: 0 }) };
    await table.upsertEntity(entity, 'Replace');
  }

  async read(jobId: number): Promise<WatchRow | null> {
    const table = await this.table();
    try {
      return this.parse(await table.getEntity<Record<string, unknown>>(this.partition(), rowKey(jobId)));
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  /**
   * Writes the row if it is unchanged since it was read with `etag`, or creates it (`etag` null): the new ETag, or
   * null when someone else changed or created it first.
   */
  async write(jobId: number, etag: string | null, next: Omit<WatchRow, 'jobId' | 'etag'>): Promise<string | null> {
    const table = await this.table();
    const entity = { partitionKey: this.partition(), rowKey: rowKey(jobId), ...encode(next) };
    try {
      const res =
        etag !== null ? await table.updateEntity(entity, 'Replace', { etag }) : await table.createEntity(entity);
      return res.etag ?? '';
    } catch (e) {
      if (isRestError(e, 409, 412)) return null;
      throw e;
    }
  }

  /** Moves only `due`, under the ETag: the heartbeat. The new ETag, or null when the lease was taken meanwhile. */
  async renew(jobId: number, etag: string, due: number): Promise<string | null> {
    const table = await this.table();
    try {
      const entity = { partitionKey: this.partition(), rowKey: rowKey(jobId), due: dueText.encode(due) };
      const res = await table.updateEntity(entity, 'Merge', { etag });
      return res.etag ?? '';
    } catch (e) {
      if (isRestError(e, 404, 412)) return null;
      throw e;
    }
  }

  /** Takes the job off the list (under the ETag when given): nothing is left for the worker to do. */
  async remove(jobId: number, etag?: string): Promise<void> {
    const table = await this.table();
    try {
      await table.deleteEntity(this.partition(), rowKey(jobId), etag ? { etag } : undefined);
    } catch (e) {
      if (!isRestError(e, 404, 412)) throw e;
    }
  }

  /** The jobs whose lease ended or whose next look is due: one partition query. */
  async dueBefore(nowMs: number): Promise<WatchRow[]> {
    const table = await this.table();
    const rows: WatchRow[] = [];
    const filter = odata`PartitionKey eq ${this.partition()} and due lt ${dueText.encode(nowMs)}`;
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter } }))
      rows.push(this.parse(e));
    return rows;
  }
}
