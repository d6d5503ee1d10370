import { FarmIndex } from '../farms/farm-index';
import { recordNotFound } from './amend-service';
import { PhytoStore } from './phyto-store';
import { recordAnswer } from './record-answer';
import { recordEtag } from './register-service';

/** An amendment between the pointer's read and the record's moves the record to a new key: read the pointer again. */
const ATTEMPTS = 3;

/**
 * One record of a farm campaign, as registration and amendment answer it, with its ETag: two point reads (its pointer,
 * then its row). A record of another farm campaign, a deleted one and an unknown one are the same RECORD_NOT_FOUND.
 */
export async function readRecord(
  store: Pick<PhytoStore, 'readPointers' | 'readRecord'>,
  farm: FarmIndex,
  id: number,
): Promise<{ status: number; body: string; etag: string }> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const pointer = (await store.readPointers(farm.meta, [id])).get(id);
    if (!pointer) break;
    const stored = await store.readRecord(farm.meta, pointer.recordRowKey);
    if (stored)
      return {
        status: 200,
        body: JSON.stringify([recordAnswer(stored.record, farm, stored.blockIds)]),
        etag: recordEtag(pointer.version),
      };
  }
  throw recordNotFound(id);
}
