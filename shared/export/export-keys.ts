import type { TableClient } from '@azure/data-tables';
import { z } from 'zod';
import { isRestError } from '../store/azure-sdk';
import { despiteLostAnswer } from '../store/lost-answer';
import { TABLES, TableStore } from '../store/tables';

/**
 * The Idempotency-Keys of exports, in the `jobs` table (partition `k~<farm id>`, row the key's hash): an export is not
 * one transaction, so its key is written down before it starts (`pending`, naming the job id it will use) and holds
 * the answer once it is done. A retry under the key then waits for the first request, or gets its answer, and never
 * starts a second job.
 */
const pendingRow = z.object({
  state: z.literal('pending'),
  requestHash: z.string(),
  jobId: z.number().int().positive(),
  startedAt: z.number(),
});
const doneRow = z.object({
  state: z.literal('done'),
  requestHash: z.string(),
  status: z.number().int(),
  body: z.string(),
});
const keyRow = z.discriminatedUnion('state', [pendingRow, doneRow]);
export type ExportKey = z.infer<typeof keyRow> & { etag: string };

const partition = (farmId: number) => `k~${farmId}`;

export class ExportKeyStore {
  constructor(private readonly tables: TableStore) {}

  private table(): Promise<TableClient> {
    return this.tables.table(TABLES.jobs);
  }

  async read(farmId: number, hash: string): Promise<ExportKey | null> {
    const table = await this.table();
    try {
      const e = await table.getEntity<Record<string, unknown>>(partition(farmId), hash);
      return { ...keyRow.parse(e), etag: String(e.etag) };
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  /**
   * Writes the key down as pending: created if `etag` is null (null back if another request created it first), or
   * replacing a pending entry left by a request that died (null back if someone changed it first). The new ETag.
   */
  async begin(
    farmId: number,
    hash: string,
    etag: string | null,
    entry: Omit<z.infer<typeof pendingRow>, 'state'>,
  ): Promise<string | null> {
    const table = await this.table();
    const row = { partitionKey: partition(farmId), rowKey: hash, state: 'pending', ...entry };
    try {
      const res = etag === null ? await table.createEntity(row) : await table.updateEntity(row, 'Replace', { etag });
      return res.etag ?? '';
    } catch (e) {
      if (isRestError(e, 409, 412)) return null;
      throw e;
    }
  }

  /**
   * Keeps the answer under the key (over the pending entry this request wrote). A conflict whose row already holds this
   * answer is this write's own, answered as lost and retried by the SDK: done, not an error.
   */
  async complete(
    farmId: number,
    hash: string,
    etag: string,
    entry: Omit<z.infer<typeof doneRow>, 'state'>,
  ): Promise<void> {
    const table = await this.table();
    await despiteLostAnswer(
      async () => {
        await table.updateEntity(
          { partitionKey: partition(farmId), rowKey: hash, state: 'done', ...entry },
          'Replace',
          {
            etag,
          },
        );
        return true;
      },
      async () => {
        const now = await this.read(farmId, hash);
        return now?.state === 'done' && now.requestHash === entry.requestHash && now.body === entry.body
          ? true
          : undefined;
      },
    );
  }

  /** Forgets a pending key whose request started nothing: the key may be used again. */
  async drop(farmId: number, hash: string, etag: string): Promise<void> {
    const table = await this.table();
    try {
      await table.deleteEntity(partition(farmId), hash, { etag });
    } catch (e) {
      if (!isRestError(e, 404, 412)) throw e;
    }
  }
}
