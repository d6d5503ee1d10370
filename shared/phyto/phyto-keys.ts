/**
 * Row keys of the `phyto` table. One partition per farm campaign holds:
 * - `r~<inverted time>~<inverted id>`: a record; inverted so a partition query returns newest application first;
 * - `i~<id>`: pointer from a record id to its row key (export and amendments find records by id);
 * - `k~<hash>`: an Idempotency-Key of a client and the response it got;
 * - `g~<product>~<idcp>`: the applications of one product on one crop location (interval and count checks).
 */
const MAX_MS = 9_999_999_999_999;
const MAX_ID = 9_999_999_999;

export const farmPartition = (farmId: number): string => `f${farmId}`;

export function invertedTime(epochMs: number): string {
  return String(MAX_MS - epochMs).padStart(13, '0');
}

export function recordRowKey(epochMs: number, id: number): string {
  return `r~${invertedTime(epochMs)}~${String(MAX_ID - id).padStart(10, '0')}`;
}

export const pointerRowKey = (id: number): string => `i~${String(id).padStart(10, '0')}`;
export const idempotencyRowKey = (hash: string): string => `k~${hash}`;
export const guardRowKey = (product: string, idcp: number): string => `g~${product}~${idcp}`;

/** Row-key bounds of records applied within [fromMs, toMs] (inclusive), for a partition range query. */
export function recordRange(fromMs: number | undefined, toMs: number | undefined): { ge: string; lt: string } {
  return {
    ge: toMs === undefined ? 'r~' : `r~${invertedTime(toMs)}`,
    // '~' sorts after every digit, so this bound includes every id at the `fromMs` instant.
    lt: fromMs === undefined ? 'r~~' : `r~${invertedTime(fromMs)}~~`,
  };
}

/** The application instant (epoch ms) a record row key encodes. */
export function appliedAtOf(recordRowKey: string): number {
  return MAX_MS - Number(recordRowKey.slice(2, 15));
}

/** The record id a record row key encodes. */
export function recordIdOf(recordRowKey: string): number {
  return MAX_ID - Number(recordRowKey.slice(recordRowKey.lastIndexOf('~') + 1));
}
