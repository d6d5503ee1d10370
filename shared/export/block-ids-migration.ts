import { allocateBlockIds, legacyBlockIds } from '../records/block-ids';
import { siexBlocksOf } from '../records/export-state';
import { RecordPointer } from '../records/record-store';
import { FarmIndex } from '../farms/farm-index';
import { PhytoStore } from '../phyto/phyto-store';
import { blockKeysOf } from '../siex/cue-mapping';
import type { IdSource } from '../store/counters';

export interface MigrationDeps {
  phyto: Pick<PhytoStore, 'readRecords' | 'setBlockIds'>;
  /** The records' id counter, which block ids come from too. */
  recordIds: IdSource;
}

/**
 * Gives the records an export is about to take, when stored the old way (no block ids), the ids they keep from now on
 * (issue 23, item 2: at most 10 digits). Read the old way, the k-th crop and variety of a record had `k × 10^10 + id`;
 * only the ids SIEX holds of it (and the record's own) are kept, every other crop and variety takes a fresh id from the
 * records' counter, and an id above number(10) is kept by none: it stays in what SIEX holds, so the export sends
 * `Borrar` under it. Written under each pointer's ETag (a conflict is a lost race for the record, and only leaks ids);
 * answers the pointers as they now are, for the claim.
 */
export async function migrateBlockIds(
  deps: MigrationDeps,
  farm: FarmIndex,
  pointers: readonly RecordPointer[],
): Promise<RecordPointer[]> {
  const legacy = pointers.filter((p) => p.blockIds === null);
  if (legacy.length === 0) return [...pointers];
  const records = await deps.phyto.readRecords(
    farm.meta,
    legacy.map((p) => p.recordRowKey),
  );
  const migrated = new Map<number, RecordPointer>();
  for (const p of legacy) {
    const stored = records.get(p.recordRowKey);
    if (!stored) continue;
    const keys = blockKeysOf(stored.record.idcp, farm);
    const kept = legacyBlockIds(p.id, keys, siexBlocksOf(p.exportState));
    const blockIds = await allocateBlockIds(kept, keys, deps.recordIds, p.id);
    migrated.set(p.id, await deps.phyto.setBlockIds(farm.meta, p, blockIds));
  }
  return pointers.map((p) => migrated.get(p.id) ?? p);
}
