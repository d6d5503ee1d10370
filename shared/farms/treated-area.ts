import { IdcpEntry } from './farm-index';
import { sigpacCode } from './sigpac';

/** Areas are reported to the square metre: 0.0001 ha. */
const M2 = 1e4;

interface Enclosure {
  hectares: number;
  idcps: number[];
}

/**
 * The record's locations by SIGPAC enclosure. Two crops of one enclosure (an idcp each) share its ground, so the
 * enclosure counts once; its area is the largest any of its entries states (they all state the enclosure's area).
 */
function enclosuresOf(entries: readonly IdcpEntry[]): Map<string, Enclosure> {
  const out = new Map<string, Enclosure>();
  for (const e of entries) {
    const key = sigpacCode(e);
    const hectares = Number(e.dimension);
    const found = out.get(key);
    if (found) {
      found.hectares = Math.max(found.hectares, hectares);
      found.idcps.push(e.idcp);
    } else out.set(key, { hectares, idcps: [e.idcp] });
  }
  return out;
}

/** Hectares of ground the locations cover: each SIGPAC enclosure once, however many of its crops the record names. */
export function locationsArea(entries: readonly IdcpEntry[]): number {
  let total = 0;
  for (const e of enclosuresOf(entries).values()) total += e.hectares;
  return total;
}

/**
 * The hectares each location (idcp) reports: `treated` hectares, or the whole ground when not given, spread over the
 * enclosures in proportion to their size, and each enclosure's part split evenly among the record's crops on it. No
 * location ever reports more than its share of its enclosure, and the total never exceeds the ground covered.
 */
export function areaShares(entries: readonly IdcpEntry[], treated?: number): Map<number, number> {
  const enclosures = enclosuresOf(entries);
  const ground = locationsArea(entries);
  const fraction = treated === undefined || ground <= 0 ? 1 : Math.min(1, Math.max(0, treated / ground));
  const shares = new Map<number, number>();
  for (const e of enclosures.values()) {
    const cap = e.hectares / e.idcps.length;
    const share = Math.min(Math.round(cap * fraction * M2) / M2, Math.floor(cap * M2 + 1e-6) / M2);
    for (const idcp of e.idcps) shares.set(idcp, share);
  }
  return shares;
}
