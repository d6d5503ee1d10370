/** NGSI-LD URNs `urn:ngsi-ld:<EntityType>:<n>` with a positive integer `n` of at most 10 digits (SIEX external ids). */
export type EntityType = 'AgriFarm' | 'AgriCrop' | 'AgriParcel' | 'AgriPhytosanitary' | 'AgriFertilize';

const MAX_ID = 9_999_999_999;

export function urn(type: EntityType, n: number): string {
  return `urn:ngsi-ld:${type}:${n}`;
}

/** The integer inside a URN of the given type, or null when the text is not such a URN. */
export function parseUrn(type: EntityType, text: string): number | null {
  const prefix = `urn:ngsi-ld:${type}:`;
  if (!text.startsWith(prefix)) return null;
  const digits = text.slice(prefix.length);
  if (!/^[1-9]\d{0,9}$/.test(digits)) return null;
  const n = Number(digits);
  return n <= MAX_ID ? n : null;
}
