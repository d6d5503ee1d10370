import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { CATALOGUES, CatalogueName, catalogueNames, parseCatalogue } from '../shared/app/siex-catalogues';
import { CatalogueDiff, diffCatalogue, knownCodes } from '../shared/catalog/siex-codes/catalogue-diff';
import { decodeCatalogue } from '../shared/catalog/siex-codes/decode-catalogue';

/** FEGA's catalogue service: every SIEX catalogue in one zip (data/siex/README.md). */
export const FEGA_CATALOGUES_ZIP = 'https://www11.fega.es/bdcsixwsp/catalogos/zip/';

interface FetchCataloguesOptions {
  /** Address of the zip. */
  from: string;
  /** Folder the catalogues are written to. */
  out: string;
  /** Folder of the copy to compare with (the project's data/siex/catalogues). */
  baseline: string;
  /** Bound on the whole download; FEGA's zip is a few MB. */
  timeoutMs?: number;
}

interface FetchedCatalogue extends CatalogueDiff {
  catalogue: CatalogueName;
  file: string;
  /** The bytes differ from the baseline's (a file can change without changing a code: quoting, order). */
  bytesChanged: boolean;
  /** Rows of the new file that could not be read (line 1 is the header). */
  problems: string[];
}

interface FetchCataloguesReport {
  from: string;
  out: string;
  catalogues: FetchedCatalogue[];
  /** Catalogues the gateway uses that the zip does not have: left as they were. */
  missing: string[];
  /** Files in the zip the gateway does not use: not written. */
  notUsed: string[];
}

/** The zip's files by their upper-cased base name: FEGA may put them in a folder, and names are compared loosely. */
function entriesByName(zip: Uint8Array): Map<string, { name: string; bytes: Uint8Array }> {
  const files = unzipSync(zip);
  const out = new Map<string, { name: string; bytes: Uint8Array }>();
  for (const [name, bytes] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    out.set(path.posix.basename(name).toUpperCase(), { name: path.posix.basename(name), bytes });
  }
  return out;
}

async function download(url: string, timeoutMs: number): Promise<Uint8Array> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`${url} answered ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Downloads the catalogues zip, compares each catalogue the gateway uses with the baseline copy code by code, and
 * writes the downloaded files to `out` byte for byte (they stay Windows-1252, as published). Nothing is written when
 * the download or the zip fails, so a broken fetch never leaves a half-refreshed folder.
 */
export async function fetchCatalogues(options: FetchCataloguesOptions): Promise<FetchCataloguesReport> {
  const zip = await download(options.from, options.timeoutMs ?? 120_000);
  let entries: Map<string, { name: string; bytes: Uint8Array }>;
  try {
    entries = entriesByName(zip);
  } catch (e) {
    throw new Error(`${options.from} is not a readable zip: ${(e as Error).message}`, { cause: e });
  }
  const report: FetchCataloguesReport = {
    from: options.from,
    out: options.out,
    catalogues: [],
    missing: [],
    notUsed: [],
  };
  const toWrite: { file: string; bytes: Uint8Array }[] = [];
  const used = new Set<string>();
  for (const catalogue of catalogueNames) {
    const file = CATALOGUES[catalogue].file;
    const entry = entries.get(file.toUpperCase());
    if (!entry) {
      report.missing.push(file);
      continue;
    }
    used.add(file.toUpperCase());
    const fresh = parseCatalogue(catalogue, decodeCatalogue(Buffer.from(entry.bytes)));
    const baselineFile = path.join(options.baseline, file);
    const before = existsSync(baselineFile) ? readFileSync(baselineFile) : null;
    const known = before ? knownCodes(parseCatalogue(catalogue, decodeCatalogue(before)).entries) : new Map();
    const { changedEntries: _, ...diff } = diffCatalogue(known, fresh.entries);
    report.catalogues.push({
      catalogue,
      file,
      ...diff,
      bytesChanged: before === null || !before.equals(entry.bytes),
      problems: fresh.problems.map((p) => `line ${p.line}: ${p.message}`),
    });
    toWrite.push({ file, bytes: entry.bytes });
  }
  report.notUsed = [...entries.entries()]
    .filter(([key]) => !used.has(key))
    .map(([, e]) => e.name)
    .sort();
  mkdirSync(options.out, { recursive: true });
  for (const { file, bytes } of toWrite) writeFileSync(path.join(options.out, file), bytes);
  return report;
}

/** The printed report: one line per catalogue, then what an operator has to look at. */
export function formatFetchReport(report: FetchCataloguesReport): string[] {
  const lines = [`SIEX catalogues from ${report.from}, written to ${report.out}`];
  const list = (codes: string[]) => (codes.length > 10 ? `${codes.slice(0, 10).join(', ')}, ...` : codes.join(', '));
  for (const c of report.catalogues) {
    const state = !c.bytesChanged
      ? 'unchanged'
      : `${c.added.length} added, ${c.changed.length} changed, ${c.ended.length} end-dated, ${c.missingFromFile.length} gone`;
    lines.push(`  ${c.catalogue.padEnd(30)} ${state}`);
    if (c.added.length) lines.push(`    added: ${list(c.added)}`);
    if (c.changed.length) lines.push(`    changed: ${list(c.changed)}`);
    if (c.ended.length) lines.push(`    end-dated: ${list(c.ended)}`);
    if (c.missingFromFile.length) lines.push(`    no longer in the file: ${list(c.missingFromFile)}`);
    for (const p of c.problems.slice(0, 20)) lines.push(`    ${p}`);
  }
  if (report.missing.length) lines.push(`  not in the zip (left as they were): ${report.missing.join(', ')}`);
  if (report.notUsed.length) lines.push(`  in the zip, not used by the gateway: ${report.notUsed.join(', ')}`);
  return lines;
}
