import { contentHash } from '../catalog-store';
import { SiexCode } from './catalogues';

/** What a newer copy of a catalogue changes, code by code. */
export interface CatalogueDiff {
  added: string[];
  changed: string[];
  /** Codes whose Fecha de baja appeared or changed. */
  ended: string[];
  unchanged: number;
  /** Codes of the older copy absent from the newer one (FEGA end-dates codes; a vanished one is worth a look). */
  missingFromFile: string[];
}

/** A code as known before: its content hash (as stored beside it) and its end date. */
export interface KnownCode {
  hash: string;
  until: string;
}

/** Known codes of a parsed catalogue, hashed the way the catalog table stores them. */
export function knownCodes(entries: readonly SiexCode[]): Map<string, KnownCode> {
  return new Map(entries.map((e) => [e.code, { hash: contentHash(e), until: e.until }]));
}

/** Compares a catalogue's entries with what was known of it; `changedEntries` are those to write. */
export function diffCatalogue(
  before: ReadonlyMap<string, KnownCode>,
  entries: readonly SiexCode[],
): CatalogueDiff & { changedEntries: { entry: SiexCode; hash: string }[] } {
  const diff: CatalogueDiff = { added: [], changed: [], ended: [], unchanged: 0, missingFromFile: [] };
  const changedEntries: { entry: SiexCode; hash: string }[] = [];
  const inFile = new Set<string>();
  for (const entry of entries) {
    inFile.add(entry.code);
    const hash = contentHash(entry);
    const known = before.get(entry.code);
    if (known?.hash === hash) {
      diff.unchanged++;
      continue;
    }
    (known ? diff.changed : diff.added).push(entry.code);
    if (entry.until && entry.until !== known?.until) diff.ended.push(entry.code);
    changedEntries.push({ entry, hash });
  }
  for (const code of before.keys()) if (!inFile.has(code)) diff.missingFromFile.push(code);
  return { ...diff, changedEntries };
}
