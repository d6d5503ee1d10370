/**
 * Keys of a record kind's table. One partition per holding (REA) holds every campaign's records of the holding, so that a
 * registration and the history of the enclosures it touches commit in one transaction even when that history spans
 * campaigns (an interval across New Year):
 * - `r~<farm id>~<inverted time>~<inverted id>`: a record of one farm campaign; inverted so a range query returns
 *   the newest application first;
 * - `i~<id>`: pointer from a record id to its row key and farm campaign (export and amendments find records by id);
 * - `k~<hash>`: an Idempotency-Key of a client and the response it got;
 * - `g~<key>~<SIGPAC code>`: a history row the kind's rules read, by what it counts on one enclosure (the
 *   applications of one product, for interval and count checks);
 * - `v~<id>~<version>`: every version of a record, kept after it is deleted (its history);
 * - `r~<farm id>~0000000000000~list`: the farm campaign's list token, changed when records are amended or deleted;
 *   its key sorts before every record of the farm (no application is dated in 2286), so the list's query of recent
 *   records reads it at no cost.
 */
const MAX_MS = 9_999_999_999_999;
const MAX_ID = 9_999_999_999;

/** What names a farm campaign's records: its id, and the holding whose partition holds them. */
export interface FarmKey {
  farmId: number;
  rea: string;
}

export const holdingPartition = (farm: FarmKey): string => `h~${farm.rea}`;

function invertedTime(epochMs: number): string {
  return String(MAX_MS - epochMs).padStart(13, '0');
}

const farmPrefix = (farmId: number) => `r~${String(farmId).padStart(10, '0')}~`;

export function recordRowKey(farmId: number, epochMs: number, id: number): string {
  return `${farmPrefix(farmId)}${invertedTime(epochMs)}~${String(MAX_ID - id).padStart(10, '0')}`;
}

export const pointerRowKey = (id: number): string => `i~${String(id).padStart(10, '0')}`;
export const idempotencyRowKey = (hash: string): string => `k~${hash}`;
export const guardRowKey = (product: string, sigpac: string): string => `g~${product}~${sigpac}`;
export const listMarkerRowKey = (farmId: number): string => `${farmPrefix(farmId)}${invertedTime(MAX_MS)}~list`;

const versionPrefix = (id: number) => `v~${String(id).padStart(10, '0')}~`;
export const versionRowKey = (id: number, version: number): string =>
  `${versionPrefix(id)}${String(version).padStart(6, '0')}`;

/** Row-key bounds of a record's versions, for a range query. */
export function versionRange(id: number): { ge: string; lt: string } {
  return { ge: versionPrefix(id), lt: `${versionPrefix(id)}~` };
}

/** Row-key bounds of a farm campaign's records applied within [fromMs, toMs] (inclusive), for a range query. */
export function recordRange(
  farmId: number,
  fromMs: number | undefined,
  toMs: number | undefined,
): { ge: string; lt: string } {
  const prefix = farmPrefix(farmId);
  return {
    ge: toMs === undefined ? prefix : `${prefix}${invertedTime(toMs)}`,
    // '~' sorts after every digit, so this bound includes every id at the `fromMs` instant.
    lt: fromMs === undefined ? `${prefix}~` : `${prefix}${invertedTime(fromMs)}~~`,
  };
}

/** The application instant (epoch ms) a record row key encodes. */
export function appliedAtOf(recordRowKey: string): number {
  return MAX_MS - Number(recordRowKey.slice(13, 26));
}

/** The record id a record row key encodes. */
export function recordIdOf(recordRowKey: string): number {
  return MAX_ID - Number(recordRowKey.slice(recordRowKey.lastIndexOf('~') + 1));
}
