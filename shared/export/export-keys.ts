import type { TableClient } from '@azure/data-tables';
import { z } from 'zod';
import { isRestError } from '../store/azure-sdk';
import { despiteLostAnswer } from '../store/lost-answer';
import { TABLES, TableStore } from '../store/tables';
import { ExportOutcome, ExportResult } from './export-result';

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
type PendingKey = Omit<z.infer<typeof pendingRow>, 'state'>;
/** A key whose export answered: the request it was made for, and the answer it keeps. */
interface DoneKey {
  requestHash: string;
  answer: ExportResult;
}
export type ExportKey = (({ state: 'pending' } & PendingKey) | ({ state: 'done' } & DoneKey)) & { etag: string };

/**
 * The status a done row keeps its answer under: the answer's HTTP status, as rows have always been written, so every
 * row stored before the export returned domain results reads as it is. It matches the interface's status
 * (shared/http/export-reply.ts) without sharing it on purpose: this number is a stored format, kept for good, which a
 * change of the interface must not rewrite (nor could the domain import the edge's table).
 */
const OUTCOME_STATUS: Readonly<Record<ExportOutcome, number>> = {
  started: 202,
};

/** A done key as its row's columns keep it. */
export function doneColumnsOf(key: DoneKey): Omit<z.infer<typeof doneRow>, 'state'> {
  return { requestHash: key.requestHash, status: OUTCOME_STATUS[key.answer.outcome], body: key.answer.answerJson };
}

/** A done row's columns, written now or before the export returned domain results, as the answer they keep. */
export function doneKeyOf(row: Omit<z.infer<typeof doneRow>, 'state'>): DoneKey {
  const outcome = (Object.keys(OUTCOME_STATUS) as ExportOutcome[]).find((o) => OUTCOME_STATUS[o] === row.status);
  if (!outcome) throw new Error(`an export's Idempotency-Key holds no known answer (status ${row.status})`);
  return { requestHash: row.requestHash, answer: { outcome, answerJson: row.body } };
}

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
      const row = keyRow.parse(e);
      const etag = String(e.etag);
      return row.state === 'pending' ? { ...row, etag } : { state: 'done', ...doneKeyOf(row), etag };
    } catch (e) {
      if (isRestError(e, 404)) return null;
      throw e;
    }
  }

  /**
   * Writes the key down as pending: created if `etag` is null (null back if another request created it first), or
   * replacing a pending entry left by a request that died (null back if someone changed it first). The new ETag.
   */
  async begin(farmId: number, hash: string, etag: string | null, entry: PendingKey): Promise<string | null> {
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
  async complete(farmId: number, hash: string, etag: string, entry: DoneKey): Promise<void> {
    const table = await this.table();
    await despiteLostAnswer(
      async () => {
        await table.updateEntity(
          { partitionKey: partition(farmId), rowKey: hash, state: 'done', ...doneColumnsOf(entry) },
          'Replace',
          {
            etag,
          },
        );
        return true;
      },
      async () => {
        const now = await this.read(farmId, hash);
        return now?.state === 'done' &&
          now.requestHash === entry.requestHash &&
          now.answer.answerJson === entry.answer.answerJson
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
