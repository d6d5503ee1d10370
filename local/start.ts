import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { ZONE } from '../shared/domain/dates';
import { buildDemoDataset } from './demo/build-dataset';
import { flagsOrExit, intFlag, nonEmptyFlag } from './cli-args';
import { mailStubService } from './mail-stub/service';
import { webhookReceiverService } from './webhook-receiver/service';
import { officialCataloguesDir } from './siex-data';
import { siexSimulatorService } from './siex-simulator/service';
import { Stack, findProjectRoot, startStack } from './stack';

/**
 * `npm start`: the whole local stack in one process tree (docs/architecture.md, "Local stack"). Prints every address, then
 * `Gateway ready at <url>`, then a walkthrough with the first demo client's keys. Ctrl-C stops everything.
 */

export const START_USAGE = `usage: npm start -- [options]

  --port N        gateway port (default 7071)
  --data DIR      where Azurite keeps its data (default .local/ in the project)
  --in-memory     throwaway storage: nothing written to disk, nothing kept after Ctrl-C
  --dataset FILE  back-office dataset to import at start (default: the demo, local/demo/dataset.json, for the
                  campaign of today)
  -h, --help      this text`;

interface StartArgs {
  port: number;
  dataDir?: string;
  inMemory: boolean;
  dataset?: string;
  help: boolean;
}

export function parseStartArgs(argv: string[]): StartArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      'in-memory': { type: 'boolean', default: false },
      dataset: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  return {
    port:
      intFlag('--port', values.port, {
        min: 1,
        max: 65535,
        problem: (raw) => `--port needs a port number, got "${raw}"`,
      }) ?? 7071,
    dataDir: nonEmptyFlag('--data', values.data),
    inMemory: values['in-memory'],
    dataset: nonEmptyFlag('--dataset', values.dataset),
    help: values.help,
  };
}

/** Quotes for a POSIX shell, so copied commands work whatever the keys contain. */
function sh(text: string): string {
  return /^[A-Za-z0-9_./:-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

interface DemoDataset {
  clients?: { id?: string; name?: string; sidKey?: string; apiKey?: string; farms?: string[] }[];
  farms?: { rea?: string; year?: number }[];
}

/** The walkthrough printed after start-up, built from the dataset the stack imported. */
export function walkthrough(gatewayUrl: string, dataset: DemoDataset | undefined, datasetLabel: string): string {
  const lines: string[] = [];
  const client = dataset?.clients?.[0];
  const openapi = `curl -s ${sh(`${gatewayUrl}/v1/openapi.json`)}`;
  if (!client?.sidKey || !client.apiKey) {
    lines.push(`No client with keys in ${datasetLabel}: import one with npm run admin -- import FILE.`);
    lines.push('', 'OpenAPI document:', `  ${openapi}`);
    return lines.join('\n');
  }
  const rea = client.farms?.[0];
  const farm = dataset?.farms?.find((f) => f.rea === rea);
  const year = farm?.year ?? new Date().getFullYear();
  const keyHeaders = `-H ${sh(`Ocp-Apim-Sid-Key: ${client.sidKey}`)} -H ${sh(`Ocp-Apim-Subscription-Key: ${client.apiKey}`)}`;
  lines.push(`Demo client "${client.name ?? client.id ?? 'first client'}" (from ${datasetLabel}) sends these headers:`);
  lines.push(`  Ocp-Apim-Sid-Key: ${client.sidKey}`);
  lines.push(`  Ocp-Apim-Subscription-Key: ${client.apiKey}`);
  lines.push('');
  if (rea) {
    const query = new URLSearchParams({ rea, year: String(year) }).toString();
    lines.push(`Look up its farm ${rea} (${year}):`);
    lines.push(`  curl -s ${sh(`${gatewayUrl}/v1/siex/farms?${query}`)} ${keyHeaders}`);
    lines.push('');
  }
  lines.push('OpenAPI document:', `  ${openapi}`);
  return lines.join('\n');
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
  });
}

/** A port nothing listens on now, chosen by the system. */
function anyFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The demo dataset for the campaign of today, written where the stack's importer reads it (.local/), each client's
 * webhook pointing at the local receiver (`hooks`), so a finished export shows up there as it does in the outbox.
 */
function demoDatasetFile(projectRoot: string, hooks: string): string {
  const dir = join(projectRoot, '.local');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `demo-dataset-${currentCampaign()}.json`);
  const demo = buildDemoDataset(currentCampaign());
  const clients = demo.clients.map((c) => ({ ...c, webhook: `${hooks}/${c.id}` }));
  writeFileSync(file, JSON.stringify({ ...demo, clients }));
  return file;
}

/** The campaign of today: the calendar year in Madrid. */
function currentCampaign(): number {
  return DateTime.now().setZone(ZONE).year;
}

function readDataset(file: string): DemoDataset | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DemoDataset;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const args = flagsOrExit(() => parseStartArgs(process.argv.slice(2)), START_USAGE);
  if (!args) return;
  const projectRoot = findProjectRoot(__dirname);
  // The demo is loaded for the campaign of today (the committed local/demo/dataset.json is one campaign's), so its
  // farm lookups and treatment dates work whatever the year.
  // The receiver's port is known before it starts: the demo clients' webhooks name it.
  const webhookPort = (await portIsFree(7083)) ? 7083 : await anyFreePort();
  const dataset = args.dataset
    ? resolve(args.dataset)
    : demoDatasetFile(projectRoot, `http://127.0.0.1:${webhookPort}/hooks`);
  if (!existsSync(dataset)) {
    console.error(`Dataset ${args.dataset} not found.`);
    process.exit(1);
  }
  const catalogues = officialCataloguesDir(projectRoot);
  if (!(await portIsFree(args.port))) {
    console.error(`Port ${args.port} is in use (another npm start?). Stop it or pick another with --port N.`);
    process.exit(1);
  }
  // Azurite's usual ports when free, so storage tools find it, and fixed ones for the SIEX simulator and the mail
  // outbox; any free ones otherwise (we print them).
  const tablePort = (await portIsFree(10002)) ? 10002 : 0;
  const queuePort = (await portIsFree(10001)) ? 10001 : 0;
  const simulatorPort = (await portIsFree(7081)) ? 7081 : 0;
  const mailPort = (await portIsFree(7082)) ? 7082 : 0;

  let stack: Stack | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await stack?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => (stopping ? process.exit(130) : void stop(0)));
  process.on('SIGTERM', () => void stop(0));

  console.log(args.inMemory ? 'Starting (in-memory storage)...' : `Starting (data in ${args.dataDir ?? '.local/'})...`);
  try {
    stack = await startStack({
      projectRoot,
      gatewayPort: args.port,
      tablePort,
      queuePort,
      inMemory: args.inMemory,
      dataDir: args.dataDir,
      dataset,
      catalogues,
      services: [
        siexSimulatorService({ port: simulatorPort }),
        mailStubService({ port: mailPort }),
        webhookReceiverService({ port: webhookPort }),
      ],
      output: (service, line) => console.log(`[${service}] ${line}`),
    });
  } catch (err) {
    console.error(`\nStart-up failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  if (stopping) return;
  void stack.unexpectedExit.then((reason) => {
    console.error(`\n${reason}\nStopping the rest of the stack.`);
    void stop(1);
  });

  console.log('');
  const width = Math.max(...stack.services.map((s) => s.name.length));
  for (const service of stack.services) console.log(`${service.name.padEnd(width)}  ${service.url}`);
  console.log(`Storage connection string: ${stack.storageConnectionString}`);
  console.log('');
  console.log(`Gateway ready at ${stack.gatewayUrl}`);
  console.log('');
  console.log(
    walkthrough(
      stack.gatewayUrl,
      readDataset(dataset),
      args.dataset
        ? relative(projectRoot, dataset) || basename(dataset)
        : `the demo dataset (campaign ${currentCampaign()})`,
    ),
  );
  console.log('\nCtrl-C stops everything.');
}

if (require.main === module) void main();
