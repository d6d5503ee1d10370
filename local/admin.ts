import { readFileSync, writeFileSync } from 'node:fs';
import { ParseArgsConfig, parseArgs } from 'node:util';
import path from 'node:path';
import { parseSettings } from '../shared/config/config';
import { settingsSchema } from '../shared/config/settings';
import { importDataset } from '../shared/backoffice/import';
import { validateDataset } from '../shared/backoffice/dataset-validation';
import { TableStore } from '../shared/store/tables';
import { releaseUnknown } from '../shared/export/release-unknown';
import { parseRefText, refText } from '../shared/export/record-ref';
import { LEGACY_JOB_TYPE } from '../shared/app/record-kinds';
import { rebuildHistories } from '../shared/app/rebuild-histories';
import { createServices } from '../shared/app/services';
import { systemClock } from '../shared/time/clock';
import { silentLogger } from '../shared/log/logger';
import { webhookSecret } from '../shared/notify/webhook-secret';
import { FarmStore } from '../shared/farms/farm-store';
import { newKey } from '../shared/clients/keys';
import { buildDemoDataset } from './demo/build-dataset';
import { LOCAL_WEBHOOK_SIGNING_KEY } from './webhook-receiver/server';
import {
  backupCommand,
  LIST_OPTIONS,
  listBackupsCommand,
  reapplyDeletionsCommand,
  RESTORE_OPTIONS,
  restoreCommand,
  RestoreUsage,
} from './admin-backup';
import { farmAccountsCommand } from './admin-accounts';
import { importCataloguesCommand } from './admin-catalogues';
import { importProductsCommand } from './admin-products';
import { importReaCommand } from './admin-rea';
import { FEGA_CATALOGUES_ZIP, fetchCatalogues, formatFetchReport } from './fetch-catalogues';
import { officialCataloguesDir } from './siex-data';
import { findProjectRoot } from './stack';

/**
 * The back-office CLI: `npm run admin -- <command>` against the storage named by the settings in the environment
 * (`AzureWebJobsStorage`, or `AzureWebJobsStorage__accountName` with a managed identity or `az login`).
 */
const USAGE = `usage: npm run admin -- <command>
  import FILE                     load a back-office dataset (validated whole first; idempotent). Into Azure
                                  (AzureWebJobsStorage__accountName) its keys must be hashed; clear keys load
                                  only into a local store (AzureWebJobsStorage connection string)
  import-rea CODIGO_REA [--campaign YYYY] [--rea REA]
                                  onboard a farm, or roll it over to a campaign (default this year), from SIEX's
                                  REA (IUWS exportarREA at SIEX_BASE_URL; the simulator's shape until FEGA
                                  publishes one): written as the dataset's farm REA (default CODIGO_REA), as
                                  import does; prints whether it was added, changed or unchanged. Give a client
                                  the farm in its dataset entry's farms
  new-key                         generate a client key (SID or API key) and print it, once, with its hash for
                                  the dataset (sha256:...)
  import-products FILE [--allow-mass-withdrawal] [--crop-groups FILE] [--ropo-levels FILE]
                                  load the official register's bulk JSON export (products and authorized uses)
  import-catalogues DIR           load the official SIEX code catalogues (CSV files, Windows-1252)
  fetch-catalogues [--from URL] [--out DIR] [--import]
                                  download FEGA's catalogue zip, report what changed against data/siex/catalogues,
                                  write the files to DIR (default data/siex/catalogues); --import also loads them
  release-unknown JOB in-siex|not-in-siex [RECORD...]
                                  after checking whether SIEX has them, release records a failed job left with an
                                  unknown outcome (all of them, or those given: a treatment's id, another kind's URN). Export job: in-siex marks
                                  them exported, not-in-siex lets them be exported again. Deletion job: not-in-siex
                                  deletes them here too, in-siex lets their deletion be asked for again. The job's
                                  owner is told by e-mail
  webhook-secret CLIENT [--local] [--generation N]
                                  print the client's webhook signing secret, derived from WEBHOOK_SIGNING_KEY in the
                                  environment (in Azure, the vault secret webhook-signing-key): hand it to the client
                                  with its keys; it is stored nowhere. --local: the secret under npm start's key.
                                  --generation: the secret after N rotations (GET /v1/webhooks says which signs; default
                                  0, the first). Needs no storage connection
  farm-accounts                   list the data accounts (STORAGE_ACCOUNTS) and each farm's, recording the
                                  account of every farm that has none yet (as import does): run it before adding
                                  an account, so farms imported before accounts were recorded stay in the first
  rebuild-history REA              count a holding's history rows (each enclosure's manure nitrogen, each
                                  product's applications) again from its records, every kind: when its changes
                                  answer 503 STORED_DATA_UNREADABLE, or after a rule changed how they count. A
                                  change committed meanwhile makes it fail without writing over it: run it again
  write-demo-dataset              regenerate local/demo/dataset.json from local/demo/build-dataset.ts
  backup [--to CONNECTION] [--container NAME]
                                  back up every table now, as the nightly timer does (to BACKUP_STORAGE or
                                  BACKUP_BLOB_ENDPOINT, or the blob storage of CONNECTION)
  backups [--from CONNECTION | --backup-endpoint URL] [--container NAME]
                                  list the complete snapshots, oldest first
  restore --from SNAPSHOT [--to CONNECTION | --to-account NAME] [--storage CONNECTION | --backup-endpoint URL]
          [--container NAME] [--table T] [--partition P | --farm REA] [--replace]
          [--manifest-sha256 HEX | --unverified] [--deletions FILE]
                                  restore a snapshot (the protected version of each blob, its manifest checked
                                  against the copy outside the backup account) into the configured tables, or
                                  --to's, or an account by Entra ID (--to-account); --table, --partition and
                                  --farm (every table of one holding) restore part of it. A target holding rows
                                  is refused unless --replace, which empties it first and applies again the
                                  deletions it held (kept in --deletions FILE)
  reapply-deletions FILE [--to CONNECTION | --to-account NAME]
                                  apply again the deletions a restore kept in FILE (after an interruption)`;

const DEMO_DATASET_FILE = path.resolve(__dirname, '../../local/demo/dataset.json');

/** Pretty-printed, but one enclosure per line: the large demo farm stays readable and a third of the size. */
export function demoDatasetText(): string {
  const text = JSON.stringify(buildDemoDataset(), null, 2).replace(
    /\{\n\s+("prov"[^{}]*?)\n\s+\}/g,
    (_, body: string) => `{ ${body.replace(/\n\s+/g, ' ')} }`,
  );
  return `${text}\n`;
}

async function importCommand(file: string): Promise<number> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`cannot read ${file}: ${(e as Error).message}`);
    return 1;
  }
  const settings = parseSettings(process.env);
  // Azure environments are reached by account name only (their shared keys are off), and their datasets must not
  // hold a key in clear; a connection string is Azurite, where the demo and the tests keep theirs readable.
  const checked = validateDataset(json, { clearKeys: !!settings.AzureWebJobsStorage });
  if (!checked.dataset) {
    console.error(`${file}: rejected, nothing was written. ${checked.problems.length} problem(s):`);
    for (const p of checked.problems) console.error(`  ${p.path}: ${p.message}`);
    return 1;
  }
  const report = await importDataset(checked.dataset, new TableStore(settings));
  for (const [section, r] of Object.entries(report)) {
    console.log(`${section.padEnd(12)} added ${r.added}, changed ${r.changed}, unchanged ${r.unchanged}`);
  }
  return 0;
}

/** WEBHOOK_SIGNING_KEY as the gateway reads it (an unresolved Key Vault reference is no key), and no other setting. */
function webhookSigningKey(env: NodeJS.ProcessEnv): string | undefined {
  const parsed = settingsSchema.shape.WEBHOOK_SIGNING_KEY.safeParse(env.WEBHOOK_SIGNING_KEY);
  if (!parsed.success) throw new UsageError(`WEBHOOK_SIGNING_KEY: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

function storage(): TableStore {
  return new TableStore(parseSettings(process.env));
}

async function releaseUnknownCommand(args: string[]): Promise<number> {
  const [job, verdict, ...records] = args;
  const refs = records.map((r) => parseRefText(r, LEGACY_JOB_TYPE));
  if (
    !/^\d+$/.test(job ?? '') ||
    (verdict !== 'in-siex' && verdict !== 'not-in-siex') ||
    !refs.every((r) => r !== null)
  ) {
    throw new UsageError(
      'release-unknown takes a job id, in-siex or not-in-siex, and optionally records (a treatment by its id, another kind by its URN)',
    );
  }
  const settings = parseSettings(process.env);
  const svc = createServices(settings, systemClock, silentLogger);
  try {
    const { released } = await releaseUnknown(
      {
        jobs: svc.jobs,
        watch: svc.watch,
        farms: new FarmStore(svc.tables, 0),
        kinds: await svc.exportKinds(),
      },
      Number(job),
      verdict,
      refs,
    );
    const names = released.map((r) => refText(r, LEGACY_JOB_TYPE)).join(', ');
    console.log(`export job ${job}: released ${released.length} record(s) as ${verdict}: ${names}`);
    return 0;
  } catch (e) {
    console.error((e as Error).message);
    return 1;
  }
}

async function rebuildHistoryCommand(rea: string): Promise<number> {
  const svc = createServices(parseSettings(process.env), systemClock, silentLogger);
  for (const { kind, rebuilt } of await rebuildHistories(svc, rea)) {
    const skipped = rebuilt.skipped ? `, ${rebuilt.skipped} of a campaign without farm data not counted` : '';
    console.log(
      `${kind.padEnd(18)} ${rebuilt.records} record(s) counted${skipped}: ${rebuilt.written} row(s) written, ${rebuilt.deleted} deleted`,
    );
  }
  return 0;
}

async function fetchCataloguesCommand(values: { from?: string; out?: string; import?: boolean }): Promise<number> {
  const baseline = officialCataloguesDir(findProjectRoot(__dirname));
  const out = path.resolve(values.out ?? baseline);
  const report = await fetchCatalogues({ from: values.from ?? FEGA_CATALOGUES_ZIP, out, baseline });
  for (const line of formatFetchReport(report)) console.log(line);
  if (values.import) await importCataloguesCommand(out, storage());
  return 0;
}

/** A command line the usage does not allow: told with the usage, exit code 2. */
class UsageError extends Error {}

/** A restore refused for how it was asked, as a usage error. */
function usageOf(e: unknown): never {
  throw e instanceof RestoreUsage ? new UsageError(e.message) : e;
}

/** One command's flags and its positional arguments (FILE, DIR), exactly as many as it takes. */
function commandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: string[],
  options: O,
  positionals: number,
) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message); // an unknown flag, a flag without its value
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(
      positionals === 0
        ? `${command} takes no argument besides its flags`
        : `${command} takes ${positionals} argument(s), got ${parsed.positionals.length}`,
    );
  }
  return { values: parsed.values, argument: parsed.positionals[0] ?? '' };
}

async function run(command: string | undefined, rest: string[]): Promise<number> {
  switch (command) {
    case 'import':
      return importCommand(commandArgs(command, rest, {}, 1).argument);
    case 'import-rea': {
      const options = { campaign: { type: 'string' }, rea: { type: 'string' } } as const;
      const { values, argument } = commandArgs(command, rest, options, 1);
      return importReaCommand(argument, values);
    }
    case 'import-products': {
      const { values, argument: file } = commandArgs(
        command,
        rest,
        {
          'allow-mass-withdrawal': { type: 'boolean' },
          'crop-groups': { type: 'string' },
          'ropo-levels': { type: 'string' },
        },
        1,
      );
      // Products the register file could not give (reported in the summary) do not fail the import.
      await importProductsCommand(file, storage(), {
        allowMassWithdrawal: values['allow-mass-withdrawal'],
        cropGroupsFile: values['crop-groups'],
        ropoLevelsFile: values['ropo-levels'],
      });
      return 0;
    }
    case 'import-catalogues':
      await importCataloguesCommand(commandArgs(command, rest, {}, 1).argument, storage());
      return 0;
    case 'fetch-catalogues': {
      const options = { from: { type: 'string' }, out: { type: 'string' }, import: { type: 'boolean' } } as const;
      return fetchCataloguesCommand(commandArgs(command, rest, options, 0).values);
    }
    case 'release-unknown':
      return releaseUnknownCommand(rest);
    case 'backup': {
      const options = { to: { type: 'string' }, container: { type: 'string' } } as const;
      return backupCommand(commandArgs(command, rest, options, 0).values);
    }
    case 'backups':
      return listBackupsCommand(commandArgs(command, rest, LIST_OPTIONS, 0).values);
    case 'restore': {
      const { values } = commandArgs(command, rest, RESTORE_OPTIONS, 0);
      if (!values.from) throw new UsageError('restore needs --from SNAPSHOT (npm run admin -- backups lists them)');
      return restoreCommand({ ...values, from: values.from }).catch(usageOf);
    }
    case 'reapply-deletions': {
      const { values, argument } = commandArgs(
        command,
        rest,
        { to: RESTORE_OPTIONS.to, 'to-account': RESTORE_OPTIONS['to-account'] },
        1,
      );
      return reapplyDeletionsCommand(argument, values);
    }
    case 'webhook-secret': {
      const { values, argument: client } = commandArgs(
        command,
        rest,
        { local: { type: 'boolean' }, generation: { type: 'string' } },
        1,
      );
      const generation = Number(values.generation ?? '0');
      if (!Number.isSafeInteger(generation) || generation < 0)
        throw new UsageError(`--generation is a whole number from 0, not ${values.generation}`);
      // The key alone: the secret is derived, so the storage the other commands need is neither asked for nor read.
      const key = values.local ? LOCAL_WEBHOOK_SIGNING_KEY : webhookSigningKey(process.env);
      if (!key)
        throw new UsageError(
          'webhook-secret needs WEBHOOK_SIGNING_KEY in the environment (the vault secret), or --local for npm start',
        );
      console.log(webhookSecret(key, client, generation));
      return 0;
    }
    case 'new-key': {
      commandArgs(command, rest, {}, 0);
      const { key, hashed } = newKey();
      console.log(`key  ${key}`);
      console.log(`hash ${hashed}`);
      console.error('The key is shown only now: hand it to the client (an API key to API Management too), and put');
      console.error('the hash in the dataset (sidKey, previousSidKey or apiKey). Nothing is stored.');
      return 0;
    }
    case 'farm-accounts':
      commandArgs(command, rest, {}, 0);
      return farmAccountsCommand(storage());
    case 'rebuild-history':
      return rebuildHistoryCommand(commandArgs(command, rest, {}, 1).argument);
    case 'write-demo-dataset':
      commandArgs(command, rest, {}, 0);
      writeFileSync(DEMO_DATASET_FILE, demoDatasetText());
      console.log(`wrote ${DEMO_DATASET_FILE}`);
      return 0;
  }
  throw new UsageError(command ? `unknown command ${command}` : 'no command');
}

async function main([command, ...rest]: string[]): Promise<number> {
  try {
    return await run(command, rest);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`${e.message}\n\n${USAGE}`);
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
