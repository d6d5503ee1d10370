import { allocateBlockIds, legacyBlockIds } from '../records/block-ids';
import { siexBlocksOf } from '../records/export-state';
import { FarmIndex } from '../farms/farm-index';
import { ExportKinds, TakenRecord } from './export-kinds';

/**
 * Gives the records an export is about to take, when stored the old way (no block ids), the ids they keep from now on
 * (issue 23, item 2: at most 10 digits). Read the old way, the k-th crop and variety of a record had `k × 10^10 + id`;
 * only the ids SIEX holds of it (and the record's own) are kept, every other crop and variety takes a fresh id from its
 * kind's counter, and an id above number(10) is kept by none: it stays in what SIEX holds, so the export sends
 * `Borrar` under it. Only a kind that stored records the old way (`legacyBlockKeys`) has any. Written under each
 * pointer's ETag (a conflict is a lost race for the record, and only leaks ids); answers the records as they now are,
 * for the claim.
 */
export async function migrateBlockIds(
  kinds: ExportKinds,
  farm: FarmIndex,
  records: readonly TakenRecord[],
): Promise<TakenRecord[]> {
  const migrated = new Map<TakenRecord, TakenRecord>();
  for (const kind of kinds.all()) {
    const legacy = records.filter((r) => r.type === kind.urnType && r.pointer.blockIds === null);
    if (legacy.length === 0 || !kind.legacyBlockKeys) continue;
    const stored = await kind.store.readRecords(
      farm.meta,
      legacy.map((r) => r.pointer.recordRowKey),
    );
    for (const r of legacy) {
      const p = r.pointer;
      const record = stored.get(p.recordRowKey);
      if (!record) continue;
      const keys = kind.legacyBlockKeys(record.record, farm);
      const kept = legacyBlockIds(p.id, keys, siexBlocksOf(p.exportState));
      const blockIds = await allocateBlockIds(kept, keys, kind.ids, p.id);
      migrated.set(r, { type: r.type, pointer: await kind.marks.setBlockIds(farm.meta, p, blockIds) });
    }
  }
  return records.map((r) => migrated.get(r) ?? r);
}
