import { FarmIndex } from '../farms/farm-index';
import { withIdAjena } from '../records/cue-blocks';
import { RecordPointer } from '../records/record-rows';
import { ExportKind } from './export-kinds';

/**
 * What an export would refuse of each of these records of a kind now, by id: the very check the export worker makes
 * before sending (the kind's CUE mapping under the record's block ids), so that what a start refuses, what pending=1
 * leaves out and what a job settles MISSING_DATA cannot disagree. Empty: the record can be sent. A record whose row is
 * gone (deleted meanwhile) is not in the answer.
 */
export async function blockersOf(
  kind: ExportKind,
  farm: FarmIndex,
  pointers: readonly RecordPointer[],
): Promise<Map<number, string[]>> {
  const records = await kind.store.readRecords(
    farm.meta,
    pointers.map((p) => p.recordRowKey),
  );
  const blockers = new Map<number, string[]>();
  for (const p of pointers) {
    const stored = records.get(p.recordRowKey);
    if (!stored) continue;
    const blocks = withIdAjena(kind.cue, kind.cue.map(stored.record, farm), p.id, stored.blockIds);
    blockers.set(p.id, blocks.ok ? [] : blocks.missing);
  }
  return blockers;
}
