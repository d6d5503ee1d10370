import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseSettings } from '../shared/config/config';
import { importDataset } from '../shared/backoffice/import';
import { validateDataset } from '../shared/backoffice/dataset-validation';
import { TableStore } from '../shared/store/tables';
import { buildDemoDataset } from './demo/build-dataset';

/**
 * The back-office CLI: `npm run admin -- <command>` against the storage named by the settings in the environment
 * (`AzureWebJobsStorage`, or `AzureWebJobsStorage__accountName` with a managed identity or `az login`).
 */
const USAGE = `usage: npm run admin -- <command>
  import FILE            load a back-office dataset (validated whole first; idempotent)
  write-demo-dataset     regenerate local/demo/dataset.json from local/demo/build-dataset.ts`;

export const DEMO_DATASET_FILE = path.resolve(__dirname, '../../local/demo/dataset.json');

/** Pretty-printed, but one enclosure per line: the large demo farm stays readable and a third of the size. */
export function demoDatasetText(): string {
  const text = JSON.stringify(buildDemoDataset(), null, 2).replace(/\{\n\s+("prov"[^{}]*?)\n\s+\}/g, (_, body: string) =>
    `{ ${body.replace(/\n\s+/g, ' ')} }`,
  );
  return `${text}\n`;
}

async function importCommand(file: string | undefined): Promise<number> {
  if (!file) {
    console.error(USAGE);
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`cannot read ${file}: ${(e as Error).message}`);
    return 1;
  }
  const checked = validateDataset(json);
  if (!checked.dataset) {
    console.error(`${file}: rejected, nothing was written. ${checked.problems.length} problem(s):`);
    for (const p of checked.problems) console.error(`  ${p.path}: ${p.message}`);
    return 1;
  }
  const tables = new TableStore(parseSettings(process.env));
  const report = await importDataset(checked.dataset, tables);
  for (const [section, r] of Object.entries(report)) {
    console.log(`${section.padEnd(12)} added ${r.added}, changed ${r.changed}, unchanged ${r.unchanged}`);
  }
  return 0;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'import':
      return importCommand(rest[0]);
    case 'write-demo-dataset':
      writeFileSync(DEMO_DATASET_FILE, demoDatasetText());
      console.log(`wrote ${DEMO_DATASET_FILE}`);
      return 0;
    default:
      console.error(USAGE);
      return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
