import { z } from 'zod';
import { parseAnyUrn } from '../domain/urn';

/**
 * A record a job holds, by its kind (the NGSI-LD type of its URN, shared/records/record-kind.ts `urnType`) and its
 * id. Each kind takes its ids from its own counter, so treatment 12 and fertilization 12 are two records: a job names
 * its records by both.
 */
export interface RecordRef {
  type: string;
  id: number;
}

/** Job rows written before jobs held records of several kinds hold treatments. */
export const LEGACY_RECORD_TYPE = 'AgriPhytosanitary';

/** One text per record, for maps and sets: `AgriFertilize:12`. */
export const refKey = (ref: RecordRef): string => `${ref.type}:${ref.id}`;

export const sameRef = (a: RecordRef, b: RecordRef): boolean => a.type === b.type && a.id === b.id;

/** These records by kind: each kind in the order first named, its records in their order. */
export function byType(refs: readonly RecordRef[]): Map<string, RecordRef[]> {
  const out = new Map<string, RecordRef[]>();
  for (const ref of refs) out.set(ref.type, [...(out.get(ref.type) ?? []), ref]);
  return out;
}

const refSchema = z.object({ type: z.string().regex(/^[A-Za-z]+$/), id: z.number().int().positive() });

/**
 * A record as a batch row's JSON lists it: a bare number is a treatment (every row written before kinds, and every
 * treatment still, so that a row of a treatments-only job reads as it always did); another kind's as `Type:id`.
 */
export const storedRefSchema = z.codec(z.union([z.number().int().positive(), z.string()]), refSchema, {
  decode: (stored) => {
    if (typeof stored === 'number') return { type: LEGACY_RECORD_TYPE, id: stored };
    const [type = '', id = ''] = stored.split(':');
    return { type, id: Number(id) };
  },
  encode: (ref) => (ref.type === LEGACY_RECORD_TYPE ? ref.id : refKey(ref)),
});

/**
 * A record as operators name it (`npm run admin -- release-unknown`): a treatment by its id, as before other kinds
 * existed, another kind's by its URN.
 */
export const refText = (ref: RecordRef): string =>
  ref.type === LEGACY_RECORD_TYPE ? String(ref.id) : `urn:ngsi-ld:${ref.type}:${ref.id}`;

/** The record an operator named (`refText`), or null when the text names none. */
export function parseRefText(text: string): RecordRef | null {
  if (/^[1-9]\d{0,9}$/.test(text)) return { type: LEGACY_RECORD_TYPE, id: Number(text) };
  const parsed = parseAnyUrn(text);
  return parsed && { type: parsed.type, id: parsed.n };
}
