import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { TableStore } from '../../store/tables';
import { CatalogueProblem, Catalogues, parseCatalogue } from './catalogues';
import { decodeCatalogue } from './decode-catalogue';
import { CatalogueUpsertReport, SiexCodeStore } from './store';

interface CatalogueImportResult extends CatalogueUpsertReport {
  catalogue: string;
  file: string;
  codes: number;
  problems: CatalogueProblem[];
}

export interface CataloguesImportReport {
  dir: string;
  catalogues: CatalogueImportResult[];
  /** Catalogues the gateway uses whose file is not in the folder (left as stored). */
  missingFiles: string[];
  /** CSV files in the folder the gateway does not use. */
  ignoredFiles: string[];
}

/**
 * Imports these catalogues (every one the gateway uses: shared/app/siex-catalogues.ts) from a folder of official CSV
 * files. Each catalogue stands alone: a missing file leaves that catalogue as it was stored, and a row that cannot be
 * read is reported without blocking the others. A file whose header is wrong imports nothing (its problems say why).
 */
export async function importCatalogues(
  dir: string,
  store: TableStore,
  catalogues: Catalogues,
): Promise<CataloguesImportReport> {
  const files = new Map((await readdir(dir)).map((f) => [f.toLowerCase(), f]));
  const codeStore = new SiexCodeStore(store);
  const report: CataloguesImportReport = { dir, catalogues: [], missingFiles: [], ignoredFiles: [] };
  const used = new Set<string>();
  for (const [catalogue, definition] of Object.entries(catalogues)) {
    const wanted = definition.file;
    const file = files.get(wanted.toLowerCase());
    if (!file) {
      report.missingFiles.push(wanted);
      continue;
    }
    used.add(file);
    const { entries, problems } = parseCatalogue(definition, decodeCatalogue(await readFile(path.join(dir, file))));
    const upserted = await codeStore.upsertCatalogue(catalogue, entries);
    report.catalogues.push({ catalogue, file, codes: entries.length, problems, ...upserted });
  }
  report.ignoredFiles = [...files.values()].filter((f) => f.toLowerCase().endsWith('.csv') && !used.has(f)).sort();
  return report;
}
