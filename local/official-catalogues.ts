import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The official SIEX catalogues live in the team kit beside the project (`../shared/siex/catalogues`), never copied
 * into it; local tools load them from there when it is present.
 */
export function officialCataloguesDir(projectRoot: string): string | null {
  const dir = resolve(projectRoot, '../shared/siex/catalogues');
  return existsSync(dir) ? dir : null;
}
