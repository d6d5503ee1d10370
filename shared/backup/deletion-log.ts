import { z } from 'zod';
import { pointerRowKey } from '../records/record-keys';
import { BackupRow } from './snapshot-format';

/**
 * The deletions a restore must apply again so that an erasure stays erased (issue 36). A deleted record keeps its
 * pointer row with state `deleted` (shared/records/record-store.ts: its history stays readable and its id is never
 * handed out again), so the target's own history says which records were deleted: `restore --replace` reads them from
 * the rows it takes out, before the snapshot's come back, and they are deleted again through the records core
 * (local/admin-backup.ts), which also takes them off the enclosures' history rows. A record deleted before the
 * snapshot is already deleted in it, and one registered after it is not in it: applying such a deletion again
 * changes nothing, so the log can be applied whole, and again after an interruption.
 *
 * When the target is lost with the data account, its history is lost too: the runbook (docs/operations.md, "Restore
 * everything") builds the same log from the gateway's request log instead.
 */
const deletionSchema = z.object({
  /** The record kind's table. */
  table: z.string(),
  /** The farm campaign the record belongs to (its farm index says which holding). */
  farmId: z.number().int().positive(),
  /** The record's id within its kind. */
  id: z.number().int().positive(),
});
export type Deletion = z.infer<typeof deletionSchema>;

export const deletionLogSchema = z.array(deletionSchema);

/** The deletion a removed row records, when it is a deleted record's pointer. */
export function deletionIn(table: string, row: BackupRow): Deletion | null {
  const id = /^i~(\d+)$/.exec(row.rowKey)?.[1];
  if (!id || pointerRowKey(Number(id)) !== row.rowKey || row.properties.state?.value !== 'deleted') return null;
  const farmId = Number(row.properties.farmId?.value);
  return Number.isInteger(farmId) && farmId > 0 ? { table, farmId, id: Number(id) } : null;
}
