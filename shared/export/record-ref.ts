import { z } from 'zod';
import { parseAnyUrn } from '../domain/urn';

/**
 * A record a job holds, by its kind (the NGSI-LD type of its URN, shared/records/record-kind.ts `urnType`) and its
 * id. Each kind takes its ids from its own counter, so two kinds' records 12 are two records: a job names its records
 * by both.
 */
export interface RecordRef {
  type: string;
  id: number;
}

/** One text per record, for maps and sets: `AgriExample:12`. */
export const refKey = (ref: RecordRef): string => `${ref.type}:${ref.id}`;

/** The record's URN, as registration answered it. */
export const refUrn = (ref: RecordRef): string => `urn:ngsi-ld:${ref.type}:${ref.id}`;

export const sameRef = (a: RecordRef, b: RecordRef): boolean => a.type === b.type && a.id === b.id;

/** These records by kind: each kind in the order first named, its records in their order. */
export function byType(refs: readonly RecordRef[]): Map<string, RecordRef[]> {
  const out = new Map<string, RecordRef[]>();
  for (const ref of refs) out.set(ref.type, [...(out.get(ref.type) ?? []), ref]);
  return out;
}

const refSchema = z.object({ type: z.string().regex(/^[A-Za-z]+$/), id: z.number().int().positive() });

/**
 * A record as a batch row's JSON lists it: a bare number is a record of `legacyType`, the kind every job held before
 * jobs held several (every row written then, and every such record still, so that a row of a job of that kind alone
 * reads as it always did); another kind's as `Type:id`. The store is given `legacyType` (shared/app/services.ts).
 */
export const storedRefSchema = (legacyType: string) =>
  z.codec(z.union([z.number().int().positive(), z.string()]), refSchema, {
    decode: (stored) => {
      if (typeof stored === 'number') return { type: legacyType, id: stored };
      const [type = '', id = ''] = stored.split(':');
      return { type, id: Number(id) };
    },
    encode: (ref) => (ref.type === legacyType ? ref.id : refKey(ref)),
  });

/**
 * A record as operators name it (`npm run admin -- release-unknown`): a record of `legacyType` by its id, as before
 * jobs held other kinds, another kind's by its URN.
 */
export const refText = (ref: RecordRef, legacyType: string): string =>
  ref.type === legacyType ? String(ref.id) : refUrn(ref);

/** The record an operator named (`refText`), or null when the text names none. */
export function parseRefText(text: string, legacyType: string): RecordRef | null {
  if (/^[1-9]\d{0,9}$/.test(text)) return { type: legacyType, id: Number(text) };
  const parsed = parseAnyUrn(text);
  return parsed && { type: parsed.type, id: parsed.n };
}
