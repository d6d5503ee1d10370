import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { isHashedKey } from '../shared/clients/keys';
import { describeAccount, storageAccounts } from '../shared/config/storage-accounts';
import { ZONE } from '../shared/domain/dates';
import { buildDemoDataset } from './demo/build-dataset';
import { flagsOrExit, intFlag, nonEmptyFlag } from './cli-args';
import { mailStubService } from './mail-stub/service';
import { webhookReceiverService } from './webhook-receiver/service';
import { officialCataloguesDir } from './siex-data';
import { siexSimulatorService } from './siex-simulator/service';
import { writeFuncSettings } from './func-settings';
import { ServiceStarter, ServicesStack, findProjectRoot, startServices, startStack } from './stack';

/**
 * `npm start`: the whole local stack in one process tree (docs/architecture.md, "Local stack"). Prints every address, then
 * `Gateway ready at <url>`, then a walkthrough with the first demo client's keys. Ctrl-C stops everything.
 */

/**
 * Every port `npm start` listens on, each fixed with a flag of its own: tools and `func start` (local.settings.json)
 * find the services where they were last time, and a port in use stops start-up, named, instead of moving.
 */
const PORTS = {
  gateway: { flag: '--port', port: 7071, what: 'gateway' },
  table: { flag: '--table-port', port: 10002, what: 'Azurite tables' },
  queue: { flag: '--queue-port', port: 10001, what: 'Azurite queues' },
  blob: { flag: '--blob-port', port: 10000, what: 'Azurite blobs' },
  siex: { flag: '--siex-port', port: 7081, what: 'SIEX simulator' },
  mail: { flag: '--mail-port', port: 7082, what: 'mail outbox' },
  webhook: { flag: '--webhook-port', port: 7083, what: 'webhook receiver' },
} as const;

type PortName = keyof typeof PORTS;

/**
 * The stand-ins for the systems a developer's machine cannot reach, started after Azurite, each on its port; another
 * is one more entry here and in PORTS: `--services-only` then starts it and writes its settings into
 * local.settings.json with the rest.
 */
const SUPPORT_SERVICES: { port: PortName; start: (port: number) => ServiceStarter }[] = [
  { port: 'siex', start: (port) => siexSimulatorService({ port }) },
  { port: 'mail', start: (port) => mailStubService({ port }) },
  { port: 'webhook', start: (port) => webhookReceiverService({ port }) },
];

export const START_USAGE = `usage: npm start -- [options]

  --port N          gateway port (default 7071)
  --services-only   Azurite, the SIEX simulator, the mail outbox and the webhook receiver, with the data imported, but
                    no gateway: for
                    \`npm run start:func\` in another terminal; writes local.settings.json for it
  --settings FILE   where --services-only writes the settings (default local.settings.json in the project)
  --table-port N    Azurite tables (default 10002)
  --queue-port N    Azurite queues (default 10001)
  --blob-port N     Azurite blobs (default 10000)
  --siex-port N     SIEX simulator (default 7081)
  --mail-port N     mail outbox (default 7082)
  --webhook-port N  webhook receiver (default 7083; the demo clients' webhooks point at it)
  --data DIR        where Azurite keeps its data (default .local/ in the project)
  --in-memory       throwaway storage: nothing written to disk, nothing kept after Ctrl-C
  --accounts N      data accounts farms are spread over (default 1; at most 8): an Azurite each, the first the
                    one above, the others on free ports (STORAGE_ACCOUNTS, docs/operations.md "Storage accounts")
  --dataset FILE    back-office dataset to import at start (default: the demo, local/demo/dataset.json, for the
                    campaign of today)
  -h, --help        this text

A port in use stops start-up, naming it: stop what holds it, or choose another with its flag.`;

interface StartArgs {
  ports: Record<PortName, number>;
  servicesOnly: boolean;
  settingsFile?: string;
  dataDir?: string;
  inMemory: boolean;
  /** Data accounts (STORAGE_ACCOUNTS): 1 unless --accounts says more. */
  accounts: number;
  dataset?: string;
  help: boolean;
}

/** More Azurites than this would only slow a laptop down: two show everything sharding does. */
const MAX_ACCOUNTS = 8;

const portFlag = (name: PortName, raw: string | undefined): number =>
  intFlag(PORTS[name].flag, raw, {
    min: 1,
    max: 65535,
    problem: (value) => `${PORTS[name].flag} needs a port number, got "${value}"`,
  }) ?? PORTS[name].port;

export function parseStartArgs(argv: string[]): StartArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      'services-only': { type: 'boolean', default: false },
      settings: { type: 'string' },
      'table-port': { type: 'string' },
      'queue-port': { type: 'string' },
      'blob-port': { type: 'string' },
      'siex-port': { type: 'string' },
      'mail-port': { type: 'string' },
      'webhook-port': { type: 'string' },
      data: { type: 'string' },
      'in-memory': { type: 'boolean', default: false },
      accounts: { type: 'string' },
      dataset: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const settingsFile = nonEmptyFlag('--settings', values.settings);
  if (settingsFile && !values['services-only']) throw new Error('--settings goes with --services-only');
  return {
    ports: {
      gateway: portFlag('gateway', values.port),
      table: portFlag('table', values['table-port']),
      queue: portFlag('queue', values['queue-port']),
      blob: portFlag('blob', values['blob-port']),
      siex: portFlag('siex', values['siex-port']),
      mail: portFlag('mail', values['mail-port']),
      webhook: portFlag('webhook', values['webhook-port']),
    },
    servicesOnly: values['services-only'],
    settingsFile,
    dataDir: nonEmptyFlag('--data', values.data),
    inMemory: values['in-memory'],
    accounts: intFlag('--accounts', values.accounts, { min: 1, max: MAX_ACCOUNTS }) ?? 1,
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
  const reference = `API reference (every operation, with its schemas and examples): ${gatewayUrl}/docs`;
  if (!client?.sidKey || !client.apiKey) {
    lines.push(`No client with keys in ${datasetLabel}: import one with npm run admin -- import FILE.`);
    lines.push('', 'OpenAPI document:', `  ${openapi}`, '', reference);
    return lines.join('\n');
  }
  const rea = client.farms?.[0];
  const farm = dataset?.farms?.find((f) => f.rea === rea);
  const year = farm?.year ?? new Date().getFullYear();
  // A dataset may hold only the keys' hashes: then the walkthrough shows where the keys go, not what they are.
  const [sidKey, apiKey] = [client.sidKey, client.apiKey].map((k, i) =>
    isHashedKey(k) ? ['<the SID key>', '<the API key>'][i]! : k,
  );
  const keyHeaders = `-H ${sh(`Ocp-Apim-Sid-Key: ${sidKey}`)} -H ${sh(`Ocp-Apim-Subscription-Key: ${apiKey}`)}`;
  lines.push(`Demo client "${client.name ?? client.id ?? 'first client'}" (from ${datasetLabel}) sends these headers:`);
  lines.push(`  Ocp-Apim-Sid-Key: ${sidKey}`);
  lines.push(`  Ocp-Apim-Subscription-Key: ${apiKey}`);
  if (sidKey !== client.sidKey || apiKey !== client.apiKey)
    lines.push(
      `  (${datasetLabel} holds keys as their hashes: use the keys npm run admin -- new-key printed with them.)`,
    );
  lines.push('');
  if (rea) {
    const query = new URLSearchParams({ rea, year: String(year) }).toString();
    lines.push(`Look up its farm ${rea} (${year}):`);
    lines.push(`  curl -s ${sh(`${gatewayUrl}/v1/siex/farms?${query}`)} ${keyHeaders}`);
    lines.push('');
  }
  lines.push('OpenAPI document:', `  ${openapi}`, '', reference);
  return lines.join('\n');
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
  });
}

/**
 * The first of the ports this run needs that something else holds, in one line naming it and its flag; undefined when
 * all are free. The same port given to two services is refused too.
 */
export async function portProblem(ports: Partial<Record<PortName, number>>): Promise<string | undefined> {
  const claimed = new Map<number, PortName>();
  for (const [name, port] of Object.entries(ports) as [PortName, number][]) {
    const { flag, what } = PORTS[name];
    const other = claimed.get(port);
    if (other) return `Port ${port} is given to both ${PORTS[other].what} and ${what}: choose another with ${flag} N.`;
    claimed.set(port, name);
    if (!(await portIsFree(port)))
      return `Port ${port} (${what}) is in use: stop what holds it (another npm start?) or choose another with ${flag} N.`;
  }
  return undefined;
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

/**
 * The dataset file the stack imports: the one given, or the demo for the campaign of today (the committed
 * local/demo/dataset.json is one campaign's), so its farm lookups and treatment dates work whatever the year.
 */
function datasetToLoad(args: StartArgs, projectRoot: string): string {
  const dataset = args.dataset
    ? resolve(args.dataset)
    : demoDatasetFile(projectRoot, `http://127.0.0.1:${args.ports.webhook}/hooks`);
  if (!existsSync(dataset)) {
    console.error(`Dataset ${args.dataset} not found.`);
    process.exit(1);
  }
  return dataset;
}

/** Without the gateway (`--services-only`): the settings `func start` needs, written for it. */
function servicesReady(args: StartArgs, projectRoot: string, stack: ServicesStack): void {
  const file = resolve(args.settingsFile ?? join(projectRoot, 'local.settings.json'));
  writeFuncSettings(projectRoot, file, stack.env);
  console.log(
    `Settings for func start written to ${file.startsWith(projectRoot) ? relative(projectRoot, file) : file}`,
  );
  console.log('Services ready: run `npm run start:func` in another terminal. Ctrl-C stops them.');
}

/** With the gateway: where it is, and the walkthrough with the dataset's first client. */
function gatewayReady(args: StartArgs, projectRoot: string, gatewayUrl: string, dataset: string): void {
  const label = args.dataset
    ? relative(projectRoot, dataset) || basename(dataset)
    : `the demo dataset (campaign ${currentCampaign()})`;
  console.log(`Gateway ready at ${gatewayUrl}`);
  console.log('');
  console.log(walkthrough(gatewayUrl, readDataset(dataset), label));
  console.log('\nCtrl-C stops everything.');
}

async function main(): Promise<void> {
  const args = flagsOrExit(() => parseStartArgs(process.argv.slice(2)), START_USAGE);
  if (!args) return;
  const projectRoot = findProjectRoot(__dirname);
  const { gateway, ...servicePorts } = args.ports;
  const problem = await portProblem(args.servicesOnly ? servicePorts : args.ports);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const dataset = datasetToLoad(args, projectRoot);

  let stack: ServicesStack | undefined;
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
  const options = {
    projectRoot,
    gatewayPort: gateway,
    tablePort: args.ports.table,
    queuePort: args.ports.queue,
    blobPort: args.ports.blob,
    inMemory: args.inMemory,
    dataDir: args.dataDir,
    accounts: args.accounts,
    dataset,
    catalogues: officialCataloguesDir(projectRoot),
    services: SUPPORT_SERVICES.map((s) => s.start(args.ports[s.port])),
    output: (service: string, line: string) => console.log(`[${service}] ${line}`),
  };
  let gatewayUrl: string | undefined;
  try {
    if (args.servicesOnly) stack = await startServices(options);
    else {
      const whole = await startStack(options);
      stack = whole;
      gatewayUrl = whole.gatewayUrl;
    }
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
  const accounts = storageAccounts(stack.env);
  if (accounts.length > 1)
    accounts.forEach((account, n) => console.log(`Storage account ${n}: ${describeAccount(account)}`));
  console.log('');
  if (gatewayUrl) gatewayReady(args, projectRoot, gatewayUrl, dataset);
  else servicesReady(args, projectRoot, stack);
}

if (require.main === module) void main();
