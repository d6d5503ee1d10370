import { z } from 'zod';
import type { IdSource } from '../store/counters';

/**
 * The IdAjena of each CUE block of a record, by block key (for instance, a crop and its variety). FEGA's descriptor
 * gives the IdAjena number(10), and SIEX keeps a block's history under it, so each block key of a record gets its id
 * once and keeps it for good, whatever the order the record names its locations in (issue 23, item 2).
 */
export type BlockIds = Readonly<Record<string, number>>;

/** The descriptor's number(10). */
const MAX_IDAJENA = 9_999_999_999;

/**
 * The ids of `keys`: those `previous` knew keep theirs; a new key takes a fresh id from `ids`, the counter record ids
 * come from, so no IdAjena is ever handed out twice in any farm, whichever client sent it, and none is reused after a
 * `Borrar`. A new record's first key takes the record's own id (`recordId`, taken from that same counter), so a record
 * on one crop keeps the IdAjena it always had.
 */
export async function allocateBlockIds(
  previous: BlockIds | null,
  keys: readonly string[],
  ids: IdSource,
  recordId: number,
): Promise<BlockIds> {
  const out: Record<string, number> = {};
  for (const [i, key] of keys.entries()) {
    const known = previous?.[key];
    if (known !== undefined) out[key] = known;
    else {
      const fresh = previous === null && i === 0 ? recordId : await ids.take();
      if (fresh < 1 || fresh > MAX_IDAJENA) throw new RangeError(`IdAjena ${fresh} is outside number(10)`);
      out[key] = fresh;
    }
  }
  return out;
}

/**
 * The ids a record stored before ids were kept per block key had (the migration of rows written the old way): its
 * k-th block key, in the order the record first named it, was `k × 10^10 + id`, and the first the record id itself.
 * With `held` (the ids SIEX holds of it), only the ids SIEX holds and the record's own are kept, so that an amendment
 * gives any other block key a fresh id of at most 10 digits instead of an 11-digit one SIEX never took. An id above
 * the descriptor's number(10) is not kept even when held: SIEX is sent `Borrar` under it (it stays in what SIEX
 * holds), and its crop and variety gets a fresh id of at most 10 digits (issue 23, item 2). Without `held`: the ids as
 * they were, which only a row not yet migrated (shared/export/block-ids-migration.ts) is read with.
 */
export function legacyBlockIds(recordId: number, keys: readonly string[], held?: readonly number[]): BlockIds {
  return Object.fromEntries(
    keys
      .map((key, k): [string, number] => [key, k * 10_000_000_000 + recordId])
      .filter(([, id]) => !held || (id <= MAX_IDAJENA && (id === recordId || held.includes(id)))),
  );
}

const blockIdsSchema = z.record(z.string(), z.number().int().positive());

/** The column that keeps a record's block ids, on its pointer and record rows (none for a row of the old way). */
export function blockIdsColumn(ids: BlockIds | null): { blockIds?: string } {
  return ids ? { blockIds: JSON.stringify(ids) } : {};
}

/** A row's block ids; null when it was written before they were kept (read them with `legacyBlockIds`). */
export function blockIdsOf(row: { blockIds?: unknown }): BlockIds | null {
  return typeof row.blockIds === 'string' ? blockIdsSchema.parse(JSON.parse(row.blockIds)) : null;
}
