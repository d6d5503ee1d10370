import { DateTime } from 'luxon';
import { MAX_EXPORT_RECORDS } from '../api/export-schemas';
import { FarmIndex } from '../farms/farm-index';
import { PhytoStore } from '../phyto/phyto-store';
import { claimOf } from '../records/export-state';
import { recordIdOf } from '../records/record-keys';
import { RecordKeyIndex } from '../records/record-key-index';
import { RecordPointer } from '../records/record-store';
import { exportBlockers } from '../siex/cue-mapping';

export interface PendingDeps {
  phyto: Pick<PhytoStore, 'readPointers' | 'readRecords'>;
  recordKeys: Pick<RecordKeyIndex, 'keys'>;
  /** The jobs among those that claimed these records that still hold them (export-service.ts, `jobsHolding`). */
  holding: (pointers: RecordPointer[], now: DateTime) => Promise<Set<number>>;
}

/** What `pending=1` exports: the records chosen, oldest application first, and whether others still wait. */
export interface PendingSelection {
  ids: number[];
  more: boolean;
}

/**
 * The farm campaign's records an export would take now and SIEX would take whole, oldest application first, at most
 * `max`: not exported (never, or amended since), not held by an unfinished job, not of unknown outcome, and
 * exportable (no `exportBlockers`: a record the export would settle MISSING_DATA stays out, or it would be chosen
 * again by every pending export, forever).
 */
export async function pendingRecords(
  deps: PendingDeps,
  farm: FarmIndex,
  now: DateTime,
  max = MAX_EXPORT_RECORDS,
): Promise<PendingSelection> {
  const keys = (await deps.recordKeys.keys(farm.meta)).reverse();
  const pointers = await deps.phyto.readPointers(farm.meta, keys.map(recordIdOf));
  const unsent = [...pointers.values()].filter(
    (p) => p.exportState.kind === 'unsent' || p.exportState.kind === 'changed',
  );
  const holding = await deps.holding(unsent, now);
  const free = unsent.filter((p) => {
    const claim = claimOf(p.exportState);
    return !(claim && holding.has(claim.jobId));
  });
  const records = await deps.phyto.readRecords(
    farm.meta,
    free.map((p) => p.recordRowKey),
  );
  const order = new Map(keys.map((k, i) => [recordIdOf(k), i]));
  const ready = free
    .filter((p) => {
      const stored = records.get(p.recordRowKey);
      return stored !== undefined && exportBlockers(stored.record, p.id, farm, stored.blockIds).length === 0;
    })
    .map((p) => p.id)
    .sort((a, b) => order.get(a)! - order.get(b)!);
  return { ids: ready.slice(0, max), more: ready.length > max };
}
