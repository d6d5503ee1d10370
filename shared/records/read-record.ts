import { RecordVersion } from './record-version';
import { FarmIndex } from '../farms/farm-index';
import { recordNotFound } from './changeable-record';
import { RecordKind } from './record-kind';
import { recordAnswerResult, RecordResult } from './record-result';
import { RecordView } from './record-rows';
import { RecordStore } from './record-store';

/** An amendment between the pointer's read and the record's moves the record to a new key: read the pointer again. */
const ATTEMPTS = 3;

/**
 * One record of a farm campaign, as registration and amendment answer it, with its version: two point reads (its
 * pointer, then its row). A record of another farm campaign, a deleted one and an unknown one are the same
 * RECORD_NOT_FOUND.
 */
export async function readRecordAnswer<Rec extends RecordView>(
  kind: Pick<RecordKind<unknown, Rec>, 'answer'>,
  store: Pick<RecordStore<unknown, Rec>, 'readPointers' | 'readRecord'>,
  farm: FarmIndex,
  id: number,
): Promise<RecordResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pointer = (await store.readPointers(farm.meta, [id])).get(id);
    if (!pointer) break;
    const stored = await store.readRecord(farm.meta, pointer.recordRowKey);
    if (stored) return recordAnswerResult(kind, farm, stored, pointer.version);
  }
  throw recordNotFound(id);
}

/** Every version of a record of this farm campaign, oldest first, deleted or not; RECORD_NOT_FOUND otherwise. */
export async function recordVersions(
  store: Pick<RecordStore<unknown, RecordView>, 'readHistory'>,
  farm: FarmIndex,
  id: number,
): Promise<RecordVersion[]> {
  const versions = await store.readHistory(farm.meta, id);
  if (!versions) throw recordNotFound(id);
  return versions;
}
