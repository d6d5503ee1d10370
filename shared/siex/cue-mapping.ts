import { cropKey, FarmIndex, IdcpEntry } from '../farms/farm-index';
import { areaShares } from '../farms/treated-area';

/**
 * What every record kind's CUE blocks share (schema 3.11.4, FEGA's descriptor, Anexo VI): the document, one CUADERNO
 * item for the farm with each kind's blocks in its `ActividadesExplotacion` section; the farm fields SIEX requires of
 * it; free text on one line; and the blocks of a record's locations, one per crop and variety. FEGA's descriptor
 * requires all DGCs of a block to share crop and variety, and the team's design has every activity block follow it,
 * so a record becomes one block per crop and variety of its locations, each under the IdAjena the record keeps for
 * that crop and variety (shared/records/block-ids.ts). Each kind maps its own fields in its folder (`cue` of
 * shared/records/record-kind.ts).
 */

/** The CUE document for one farm and a batch of mapped blocks, by the `ActividadesExplotacion` section each goes in. */
export function cueDocument(farm: FarmIndex, activities: Record<string, unknown[]>): { CUADERNO: unknown[] } {
  return {
    CUADERNO: [
      {
        CAExplotacion: farm.meta.communityCode,
        IdTitular: farm.meta.ownerNif,
        CodigoRea: farm.meta.codigoRea,
        UnidadGestora: farm.meta.ownerNif,
        ActividadesExplotacion: activities,
      },
    ],
  };
}

/** The farm-level fields SIEX requires; a farm without a 14-character REA code cannot be exported at all. */
export function farmProblems(farm: FarmIndex): string[] {
  const missing: string[] = [];
  if (farm.meta.codigoRea.length !== 14) missing.push('the farm has no 14-character REA code (CodigoRea)');
  if (!/^\d{2}$/.test(farm.meta.communityCode))
    missing.push('the farm has no autonomous community code (CAExplotacion)');
  if (!farm.meta.ownerNif) missing.push('the farm has no holder NIF (IdTitular)');
  return missing;
}

/** SIEX's free-text fields match `^.*$`: no line breaks or other control characters, so they become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what SIEX's `^.*$` refuses
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** The locations of a record, by crop and variety (its block key), in the order the record first names each. */
function byCropVariety(entries: IdcpEntry[], farm: FarmIndex): Map<string, IdcpEntry[]> {
  const groups = new Map<string, IdcpEntry[]>();
  for (const e of entries) {
    const crop = farm.cropOf(e);
    const key = cropKey(crop.typecropId, crop.code);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return groups;
}

/** The block keys of these locations (their crops and varieties), each once, in the order first named. */
export function blockKeysOf(idcps: readonly (string | number)[], farm: FarmIndex): string[] {
  const entries = idcps.flatMap((id) => farm.byIdcp.get(Number(id)) ?? []);
  return [...byCropVariety(entries, farm).keys()];
}

/**
 * A record's crop locations (`idcp`) as the farm has them now; each one SIEX cannot be told of (gone from the farm, or
 * on an enclosure without its DGC code) is added to `missing`.
 */
export function cropLocations(idcps: readonly (string | number)[], farm: FarmIndex, missing: string[]): IdcpEntry[] {
  const entries: IdcpEntry[] = [];
  for (const id of idcps) {
    const entry = farm.byIdcp.get(Number(id));
    if (!entry) missing.push(`idcp ${id} is no longer a crop location of the farm`);
    else {
      if (!entry.dgc) missing.push(`enclosure of idcp ${id} has no DGC code (CodigoDGC)`);
      entries.push(entry);
    }
  }
  return entries;
}

/** What a kind's blocks are built from: its block body, and what each DGC line adds of the kind's own. */
interface BlockParts {
  /**
   * The hectares the record covers, if it says; undefined when it covers its whole ground; null when the section's
   * DGCs carry no area at all (a record stated per hectare).
   */
  area: number | undefined | null;
  /** Every field of the block but its DGCs (and its IdAjena, which the core adds). */
  body: Record<string, unknown>;
  /** Fields every `DGCs` line of the record carries beside its code, crop and area. */
  dgc?: Record<string, unknown>;
}

/**
 * A record's blocks, one per crop and variety of its locations (keyed by it, in the order the record first names
 * each), each with the `DGCs` of its locations: their code, crop and share of the area (shared/farms/treated-area.ts,
 * in hundredths of a hectare, the descriptor's Superficie number(8,2)).
 */
export function cropVarietyBlocks(
  entries: IdcpEntry[],
  farm: FarmIndex,
  { area, body, dgc = {} }: BlockParts,
): { key: string; body: Record<string, unknown> }[] {
  const shares = area === null ? null : areaShares(entries, area);
  return [...byCropVariety(entries, farm)].map(([key, group]) => ({
    key,
    body: {
      ...body,
      DGCs: group.map((e) => ({
        CodigoDGC: Number(e.dgc),
        CodigoCultivo: Number(farm.cropOf(e).typecropId),
        ...(shares ? { Superficie: shares.get(e.idcp) ?? 0 } : {}),
        ...dgc,
      })),
    },
  }));
}
