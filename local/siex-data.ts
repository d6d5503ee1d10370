import { join } from 'node:path';

/**
 * Where the official SIEX data the project carries lives (data/siex/README.md: what each file is, its source and how
 * to refresh it). Local tools, tests and the bench read it from here, so a clone needs nothing beside it.
 */
function siexDataDir(projectRoot: string): string {
  return join(projectRoot, 'data', 'siex');
}

/** The official SIEX code catalogues (CSV, Windows-1252), as `import-catalogues` reads them. */
export function officialCataloguesDir(projectRoot: string): string {
  return join(siexDataDir(projectRoot), 'catalogues');
}

const CUE_SCHEMA_FILE_NAME = 'cue-schema-3.11.4.json';

/** The official CUE schema 3.11.4 (draft-07). */
export function cueSchemaPath(projectRoot: string): string {
  return join(siexDataDir(projectRoot), CUE_SCHEMA_FILE_NAME);
}
