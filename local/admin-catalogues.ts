import { CATALOGUES } from '../shared/app/siex-catalogues';
import { CataloguesImportReport, importCatalogues } from '../shared/catalog/siex-codes/import-catalogues';
import { TableStore } from '../shared/store/tables';

/**
 * `npm run admin -- import-catalogues DIR`: loads the official SIEX code catalogues (CSV, Windows-1252) from a
 * folder into the catalog table and prints what changed per catalogue. Returns the report for the caller (tests,
 * the admin CLI's exit code).
 */
export async function importCataloguesCommand(
  dir: string,
  store: TableStore,
  out: (line: string) => void = (line) => console.log(line),
): Promise<CataloguesImportReport> {
  const report = await importCatalogues(dir, store, CATALOGUES);
  for (const line of formatCataloguesReport(report)) out(line);
  return report;
}

/** The printed summary, one line per catalogue, then the details an operator has to act on. */
function formatCataloguesReport(report: CataloguesImportReport): string[] {
  const lines = [`SIEX catalogues from ${report.dir}`];
  for (const c of report.catalogues) {
    const ended = c.ended.length ? `, ${c.ended.length} end-dated (${preview(c.ended)})` : '';
    lines.push(
      `  ${c.catalogue.padEnd(24)} ${String(c.codes).padStart(5)} codes: ${c.added.length} added, ` +
        `${c.changed.length} changed, ${c.unchanged} unchanged${ended}`,
    );
    if (c.missingFromFile.length) {
      lines.push(`    ${c.missingFromFile.length} stored code(s) not in the file, kept: ${preview(c.missingFromFile)}`);
    }
    for (const p of c.problems.slice(0, 20)) lines.push(`    line ${p.line}: ${p.message}`);
    if (c.problems.length > 20) lines.push(`    ... and ${c.problems.length - 20} more problem(s)`);
  }
  if (report.missingFiles.length) lines.push(`  not in the folder (left as stored): ${report.missingFiles.join(', ')}`);
  if (report.ignoredFiles.length) lines.push(`  not used by the gateway: ${report.ignoredFiles.join(', ')}`);
  return lines;
}

function preview(codes: string[], max = 10): string {
  return codes.length > max ? `${codes.slice(0, max).join(', ')}, ...` : codes.join(', ');
}
