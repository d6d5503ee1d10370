/**
 * NGSI-LD URNs `urn:ngsi-ld:<EntityType>:<n>` with a positive integer `n` of at most 10 digits (SIEX external ids).
 * The types are the agri-food data models' (`AgriFarm`, `AgriCrop`, `AgriParcel` of the farm model); each record kind
 * names its own in its entry (`urnType`, shared/records/kind-entry.ts).
 */
export type EntityType = `Agri${string}`;

const MAX_ID = 9_999_999_999;

export function urn(type: EntityType, n: number): string {
  return `urn:ngsi-ld:${type}:${n}`;
}

/** The integer inside a URN of the given type, or null when the text is not such a URN. */
export function parseUrn(type: EntityType, text: string): number | null {
  const parsed = parseAnyUrn(text);
  return parsed?.type === type ? parsed.n : null;
}

/** The entity type and integer of any such URN, or null when the text is not one. */
export function parseAnyUrn(text: string): { type: string; n: number } | null {
  const m = /^urn:ngsi-ld:([A-Za-z]+):([1-9]\d{0,9})$/.exec(text);
  if (!m) return null;
  const n = Number(m[2]);
  return n <= MAX_ID ? { type: m[1]!, n } : null;
}
