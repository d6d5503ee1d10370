import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CATALOGUES, catalogueNames, CatalogueName, parseCatalogue } from '../../shared/app/siex-catalogues';
import { SiexCode } from '../../shared/catalog/siex-codes/catalogues';
import { decodeCatalogue } from '../../shared/catalog/siex-codes/decode-catalogue';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';

/**
 * The official SIEX catalogues the project carries (data/siex/catalogues), parsed once per jest run by the global
 * setup, with the gateway's own parser, and handed to the test files as JSON. Parsing them took each of the two dozen
 * files that use them 100-300 ms of CPU (a fresh module registry per file, so a cold parser each time); reading the
 * JSON takes 4 ms. The catalogue parser's own tests (catalog-siex-csv.test.ts) still parse the files themselves.
 */
export type ParsedCatalogues = Partial<Record<CatalogueName, SiexCode[]>>;

/** Set by the global setup for the test files (jest starts its workers after it, with its environment). */
const FILE_VARIABLE = 'SIEX_TEST_PARSED_CATALOGUES';

/** Parses every catalogue into a temporary folder and publishes its path; returns the folder, for the teardown. */
export function publishParsedCatalogues(): string {
  const dir = officialCataloguesDir(findProjectRoot(__dirname));
  const parsed: ParsedCatalogues = Object.fromEntries(
    catalogueNames.map((c) => [
      c,
      parseCatalogue(c, decodeCatalogue(readFileSync(path.join(dir, CATALOGUES[c].file)))).entries,
    ]),
  );
  const out = mkdtempSync(path.join(tmpdir(), 'siex-test-catalogues-'));
  const file = path.join(out, 'catalogues.json');
  writeFileSync(file, JSON.stringify(parsed));
  process.env[FILE_VARIABLE] = file;
  return out;
}

export function removeParsedCatalogues(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  delete process.env[FILE_VARIABLE];
}

/** The catalogues the global setup parsed. */
export function parsedCatalogues(): ParsedCatalogues {
  const file = process.env[FILE_VARIABLE];
  if (!file) throw new Error(`${FILE_VARIABLE} is not set: run the tests through jest with its global setup`);
  return JSON.parse(readFileSync(file, 'utf8')) as ParsedCatalogues;
}
