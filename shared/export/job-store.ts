import type { TableClient, TransactionAction } from '@azure/data-tables';
import { isRestError } from '../store/azure-sdk';
import { submitInChunks } from '../store/batched-query';
import { TABLES, TableStore } from '../store/tables';
import { JobStatusId } from './job-status';
import { odataEq } from '../store/odata';

/**
 * Export jobs in the `jobs` table, one partition per job so the whole job is read with one partition query:
 * `meta` (status and counts), `r~<record id>` (one row per record and its outcome), `b~<n>` (one row per SIEX batch:
 * which records it holds, its idempotency key and SIEX request id, written before it is sent).
 */
export interface JobMeta {
  jobId: number;
  clientId: string;
  notifyEmail: string;
  farmId: number;
  agrifarmId: string;
  status: JobStatusId;
  /** `DD-MM-YYYY HH:mm:ss`, Madrid. */
  inidate: string;
  /** Epoch ms of the creation, for telling an abandoned start from a job still starting. */
  createdAt: number;
  total: number;
  settled: number;
  accepted: number;
  /** JSON of `{ code, message }` when the job failed, '' otherwise. */
  error: string;
  /** JSON of the last delivery's failure while it is being retried ('' if none); becomes `error` if the job fails. */
  lastError: string;
  emailSent: boolean;
  /** Why the outcome e-mail could not be sent, when the mail service refused it for good ('' otherwise). */
  emailError: string;
}

export type ItemState = 'pending' | 'ok' | 'error';

export interface JobItem {
  recordId: number;
  recordRowKey: string;
  state: ItemState;
  code: string;
  message: string;
}

export type BatchState = 'submitting' | 'submitted' | 'done';

export interface JobBatch {
  n: number;
  key: string;
  requestId: string;
  state: BatchState;
  recordIds: number[];
}

export interface Job {
  meta: JobMeta & { etag: string };
  items: Map<number, JobItem>;
  batches: JobBatch[];
}

const jobPk = (jobId: number) => `j${jobId}`;
const itemRk = (recordId: number) => `r~${String(recordId).padStart(10, '0')}`;
const batchRk = (n: number) => `b~${String(n).padStart(4, '0')}`;

export class JobStore {
  constructor(private readonly tables: TableStore) {}

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.jobs);
  }

  /** Creates the job: status row first (in the first transaction), then the record rows. */
  async create(meta: JobMeta, items: { recordId: number; recordRowKey: string }[]): Promise<void> {
    const pk = jobPk(meta.jobId);
    const actions: TransactionAction[] = [
      ['create', { partitionKey: pk, rowKey: 'meta', ...meta }],
      ...items.map((i): TransactionAction => [
        'create',
        { partitionKey: pk, rowKey: itemRk(i.recordId), recordId: i.recordId, recordRowKey: i.recordRowKey, state: 'pending', code: '', message: '' },
      ]),
    ];
    await submitInChunks(await this.table(), actions);
  }

  async load(jobId: number): Promise<Job | null> {
    const table = await this.table();
    let meta: Job['meta'] | undefined;
    const items = new Map<number, JobItem>();
    const batches: JobBatch[] = [];
    for await (const e of table.listEntities<Record<string, unknown>>({ queryOptions: { filter: odataEq('PartitionKey', jobPk(jobId)) } })) {
      const rk = String(e.rowKey);
      if (rk === 'meta') meta = toMeta(e);
      else if (rk.startsWith('r~')) {
        items.set(Number(e.recordId), {
          recordId: Number(e.recordId),
          recordRowKey: String(e.recordRowKey),
          state: e.state as ItemState,
          code: String(e.code ?? ''),
          message: String(e.message ?? ''),
        });
      } else if (rk.startsWith('b~')) {
        batches.push({
          n: Number(rk.slice(2)),
          key: String(e.key),
          requestId: String(e.requestId ?? ''),
          state: e.state as BatchState,
          recordIds: JSON.parse(String(e.recordIds)) as number[],
        });
      }
    }
    return meta ? { meta, items, batches: batches.sort((a, b) => a.n - b.n) } : null;
  }

  /** Only the status row: what job status and access checks need. */
  async meta(jobId: number): Promise<(JobMeta & { etag: string }) | null> {
    const table = await this.table();
    try {
      return toMeta(await table.getEntity<Record<string, unknown>>(jobPk(jobId), 'meta'));
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  /** With `etag`, only if the status row is unchanged since it was read (a status transition that must not race). */
  async updateMeta(jobId: number, changes: Partial<Omit<JobMeta, 'jobId'>>, etag?: string): Promise<void> {
    const table = await this.table();
    await table.updateEntity({ partitionKey: jobPk(jobId), rowKey: 'meta', ...changes }, 'Merge', etag ? { etag } : undefined);
  }

  async saveItems(jobId: number, items: JobItem[]): Promise<void> {
    const pk = jobPk(jobId);
    await submitInChunks(
      await this.table(),
      items.map((i): TransactionAction => ['update', { partitionKey: pk, rowKey: itemRk(i.recordId), state: i.state, code: i.code, message: i.message }, 'Merge']),
    );
  }

  async saveBatches(jobId: number, batches: JobBatch[]): Promise<void> {
    const pk = jobPk(jobId);
    await submitInChunks(
      await this.table(),
      batches.map((b): TransactionAction => [
        'upsert',
        { partitionKey: pk, rowKey: batchRk(b.n), key: b.key, requestId: b.requestId, state: b.state, recordIds: JSON.stringify(b.recordIds) },
        'Replace',
      ]),
    );
  }
}

function toMeta(e: Record<string, unknown>): JobMeta & { etag: string } {
  return {
    jobId: Number(e.jobId),
    clientId: String(e.clientId),
    notifyEmail: String(e.notifyEmail ?? ''),
    farmId: Number(e.farmId),
    agrifarmId: String(e.agrifarmId),
    status: Number(e.status) as JobStatusId,
    inidate: String(e.inidate),
    createdAt: Number(e.createdAt ?? 0),
    total: Number(e.total),
    settled: Number(e.settled ?? 0),
    accepted: Number(e.accepted ?? 0),
    error: String(e.error ?? ''),
    lastError: String(e.lastError ?? ''),
    emailSent: e.emailSent === true,
    emailError: String(e.emailError ?? ''),
    etag: String(e.etag),
  };
}
