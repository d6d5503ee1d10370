import { normalizeName } from '../catalog/siex-codes/names';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';

/**
 * The commercial product of a fertilization's material, CUE `MaterialFertilizante.DetalleMaterial` (schema 3.11.4: an
 * integer, optional), from DETALLE_MATERIAL_FERT. Its code is `C_FERTILIZANTE`, and each row belongs to one MAT_FERTI
 * material (its `Código SIEX`, the entry's `parent`): a detail is sent only with its own material.
 */
const CATALOGUE = 'DETALLE_MATERIAL_FERT';

/** Each material's details by the names they go by, per loaded catalogue: built once, read on every registration. */
const indexes = new WeakMap<SiexCodes, Map<string, Map<string, number[]>>>();

function namesOf(codes: SiexCodes): Map<string, Map<string, number[]>> {
  let index = indexes.get(codes);
  if (!index) {
    index = new Map();
    for (const e of codes.list(CATALOGUE)) {
      if (!e.parent) continue;
      const byName = index.get(e.parent) ?? new Map<string, number[]>();
      index.set(e.parent, byName);
      // The label's product name ("Nombre producto") and the trade name with its maker (D_FERTILIZANTE_2).
      for (const name of new Set([e.scientific ?? '', e.name].map(normalizeName).filter(Boolean)))
        byName.set(name, [...(byName.get(name) ?? []), Number(e.code)]);
    }
    indexes.set(codes, index);
  }
  return index;
}

/**
 * The detail of `material` a label's product name gives: the one row of that material going by the name, compared as
 * catalogue names are (case, accents, spacing, soft hyphens). None when no row or several do: names repeat within a
 * material (RHIZOVIT EXCELIS names 129 rows of MAT_FERTI 14, each a formulation), and a guess would put another
 * product in the legal record.
 */
export function detailByName(codes: SiexCodes, material: number, productName: string): number | null {
  const found = namesOf(codes).get(String(material))?.get(normalizeName(productName)) ?? [];
  return found.length === 1 ? found[0]! : null;
}

/** The MAT_FERTI material a detail is a product of; undefined for a code the catalogue does not have. */
export function materialOfDetail(codes: SiexCodes, detail: number): number | undefined {
  const parent = codes.get(CATALOGUE, detail)?.parent;
  return parent === undefined ? undefined : Number(parent);
}
