/**
 * Comparison form of a name in words, shared by crop and pest matching. The register and the SIEX catalogues spell
 * the same names with different case, accents and spacing ("Escarabajo sanjuanero , Melolontha spp." in both, "Oídio"
 * vs "OIDIO" elsewhere), so names are compared without accents, in lower case, with single spaces and no space
 * before punctuation. Soft hyphens (U+00AD), invisible in print, are dropped: DETALLE_MATERIAL_FERT writes one inside
 * code 535's "serrín".
 */
export function normalizeName(text: string): string {
  return text
    .replace(/\u00ad/g, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/ ([,;.:)\]])/g, '$1')
    .replace(/([([]) /g, '$1')
    .replace(/ ?\/ ?/g, '/')
    .trim();
}
