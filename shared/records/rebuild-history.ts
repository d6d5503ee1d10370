import type { ReferenceData } from '../catalog/reference-data';
import { FarmIndex } from '../farms/farm-index';
import { FarmKey } from './record-keys';
import { RecordKind } from './record-kind';
import { RecordView } from './record-rows';
import { RecordStore } from './record-store';

/** What a rebuild found and wrote. */
export interface RebuiltHistory {
  /** Records counted (not deleted), and those of a campaign the farm data no longer has (not counted). */
  records: number;
  skipped: number;
  /** Rows written, and rows deleted (no record counts in them any more). */
  written: number;
  deleted: number;
}

/**
 * A kind's history rows of one holding, counted again from its records as they stand: what the kind's `updatedHistory`
 * makes of every record that is not deleted, each put on rows that start empty, with its own campaign's farm data. The
 * rows are totals and sets, so the order does not matter. The operators' remedy for rows a change can no longer read
 * (a total past 2^53: STORED_DATA_UNREADABLE) and for rows an earlier rule counted otherwise (`npm run admin --
 * rebuild-history`). The rows are read before the records and written under the ETags read, so a change committed
 * meanwhile makes the write fail (WriteConflict) rather than be counted out: run it again.
 */
export async function rebuildHistory<Req, Rec extends RecordView>(
  kind: Pick<RecordKind<Req, Rec, unknown, unknown>, 'fromStored' | 'updatedHistory'>,
  store: RecordStore<unknown, Rec>,
  holding: Pick<FarmKey, 'rea'>,
  farms: (farmId: number) => Promise<FarmIndex | null>,
  reference: ReferenceData,
): Promise<RebuiltHistory> {
  const { rows: read, records } = await store.readHoldingHistory(holding);
  const next = new Map<string, unknown>();
  let skipped = 0;
  for (const { farmId, request } of records) {
    const farm = await farms(farmId);
    if (!farm) {
      skipped += 1;
      continue;
    }
    const added = kind.fromStored(request);
    for (const [key, doc] of kind.updatedHistory({ rows: next, farm, removed: null, added, reference }))
      next.set(key, doc);
  }
  await store.writeHoldingHistory(holding, read, next);
  return {
    records: records.length - skipped,
    skipped,
    written: next.size,
    deleted: [...read.keys()].filter((k) => !next.has(k)).length,
  };
}
