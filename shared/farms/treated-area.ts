import { IdcpEntry } from './farm-index';
import { sigpacCode } from './sigpac';

/** SIEX takes Superficie as number(8,2) (FEGA's field descriptor, Anexo VI): hectares in hundredths. */
const HUNDREDTHS = 100;
/** Below any real fraction of a hundredth: keeps 2.35 × 100 = 234.99999… from flooring to 234. */
const EPS = 1e-6;

interface Ground {
  idcp: number;
  enclosure: string;
  /** The hectares the location stands for. */
  hectares: number;
  /** The most it could cover: its declared area, else what the declared crops leave of the enclosure. */
  most: number;
}

/**
 * The ground each of the record's locations (idcp) stands for. A crop's declared area on its enclosure (the REA
 * DGC's, `area`) is its ground; crops of an enclosure with no declared area share evenly what the declared ones leave
 * (the whole enclosure when none is declared). Two crops of one enclosure never count its ground twice.
 */
function groundOf(entries: readonly IdcpEntry[]): { rows: Ground[]; enclosures: Map<string, number> } {
  const byEnclosure = new Map<string, IdcpEntry[]>();
  for (const e of entries) {
    const key = sigpacCode(e);
    byEnclosure.set(key, [...(byEnclosure.get(key) ?? []), e]);
  }
  const rows: Ground[] = [];
  const enclosures = new Map<string, number>();
  for (const [enclosure, crops] of byEnclosure) {
    // All entries of an enclosure state its area; the largest wins should a re-import have changed one.
    const area = Math.max(...crops.map((e) => Number(e.dimension)));
    enclosures.set(enclosure, area);
    const undeclared = crops.filter((e) => e.area === undefined);
    let left = area;
    for (const e of crops) {
      if (e.area === undefined) continue;
      const hectares = Math.min(Number(e.area), area);
      rows.push({ idcp: e.idcp, enclosure, hectares, most: hectares });
      left -= hectares;
    }
    left = Math.max(0, left);
    for (const e of undeclared) rows.push({ idcp: e.idcp, enclosure, hectares: left / undeclared.length, most: left });
  }
  return { rows, enclosures };
}

/**
 * The hectares of each SIGPAC enclosure (by its code) a record covers, and the enclosure's area: its locations' ground
 * (groundOf), scaled down to `treated` hectares when the record states fewer, spread in proportion to that ground.
 */
export function enclosureCover(
  entries: readonly IdcpEntry[],
  treated?: number,
): Map<string, { hectares: number; area: number }> {
  const { rows, enclosures } = groundOf(entries);
  const total = rows.reduce((n, r) => n + r.hectares, 0);
  const scale = treated === undefined || total <= 0 ? 1 : Math.min(Math.max(0, treated), total) / total;
  const out = new Map([...enclosures].map(([key, area]) => [key, { hectares: 0, area }]));
  for (const r of rows) out.get(r.enclosure)!.hectares += r.hectares * scale;
  return out;
}

/** Hectares of ground the locations cover: declared crop areas, else each SIGPAC enclosure once. */
export function locationsArea(entries: readonly IdcpEntry[]): number {
  return groundOf(entries).rows.reduce((n, r) => n + r.hectares, 0);
}

/** Hundredths of a hectare not above `hectares`. */
const floorHundredths = (hectares: number) => Math.floor(hectares * HUNDREDTHS + EPS);

/**
 * The hectares each location (idcp) reports, in hundredths: `treated` hectares (the whole ground when not given)
 * spread over the locations in proportion to their ground (groundOf), rounded so that
 * - no location reports more than it could cover (its declared area, else its enclosure less the declared crops),
 *   and the record's crops on one enclosure together not more than the enclosure;
 * - the shares add up to the treated area within 0.01 ha (largest remainder: the hundredths lost by rounding down go
 *   to the shares that lost most, where the bounds above allow);
 * - no share is 0.00: SIEX would read a DGC treated on no ground, so it is sent as 0.01, taken back from the largest
 *   share when that keeps the total.
 */
export function areaShares(entries: readonly IdcpEntry[], treated?: number): Map<number, number> {
  const { rows: ground, enclosures } = groundOf(entries);
  const total = ground.reduce((n, r) => n + r.hectares, 0);
  const target = treated === undefined ? total : Math.min(Math.max(0, treated), total);
  const rows = ground.map((g) => {
    const exact = total > 0 ? (g.hectares * target * HUNDREDTHS) / total : 0;
    const share = Math.min(Math.floor(exact + EPS), floorHundredths(g.most));
    return { ...g, exact, share };
  });
  const room = new Map([...enclosures].map(([key, area]) => [key, floorHundredths(area)]));
  for (const r of rows) room.set(r.enclosure, room.get(r.enclosure)! - r.share);
  let missing = Math.round(target * HUNDREDTHS) - rows.reduce((n, r) => n + r.share, 0);
  for (const r of [...rows].sort((a, b) => b.exact - b.share - (a.exact - a.share))) {
    if (missing <= 0) break;
    if (r.share < floorHundredths(r.most) && room.get(r.enclosure)! > 0) {
      r.share += 1;
      room.set(r.enclosure, room.get(r.enclosure)! - 1);
      missing -= 1;
    }
  }
  for (const r of rows.filter((x) => x.share === 0)) {
    r.share = 1;
    missing -= 1;
    room.set(r.enclosure, room.get(r.enclosure)! - 1);
    // Given back by the largest share of the same enclosure when it is now over, else by the largest of all.
    const over = room.get(r.enclosure)! < 0;
    if (!over && missing >= 0) continue;
    const donors = rows.filter((x) => x.share > 1 && (!over || x.enclosure === r.enclosure));
    const largest = donors.reduce<(typeof rows)[number] | undefined>(
      (a, b) => (!a || b.share > a.share ? b : a),
      undefined,
    );
    if (!largest) continue;
    largest.share -= 1;
    room.set(largest.enclosure, room.get(largest.enclosure)! + 1);
    missing += 1;
  }
  return new Map(rows.map((r) => [r.idcp, r.share / HUNDREDTHS]));
}
