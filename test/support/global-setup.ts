import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot, startStack } from '../../local/stack';
import { mailStubService } from '../../local/mail-stub/service';
import { siexSimulatorService } from '../../local/siex-simulator/service';

/** host.json with the queue timings of a test run: a failed export delivery comes back after 1 s, not 30 s. */
function writeTestHostJson(projectRoot: string, dir: string): string {
  const host = JSON.parse(readFileSync(join(projectRoot, 'host.json'), 'utf8'));
  host.extensions.queues = {
    ...host.extensions.queues,
    visibilityTimeout: '00:00:01',
    maxPollingInterval: '00:00:00.200',
  };
  const file = join(dir, 'host.test.json');
  writeFileSync(file, JSON.stringify(host, null, 2));
  return file;
}
import { runnerScript } from '../../local/runner/process';
import { LOCAL_WEBHOOK_SIGNING_KEY } from '../../local/webhook-receiver/server';
import { TEST_MAX_BACKDATE_DAYS } from '../helpers/dataset';
import { leaveForTeardown } from './global-teardown';
import { publishParsedCatalogues, removeParsedCatalogues } from './parsed-catalogues';
import { publishCompiledCueSchema, removeCompiledCueSchema } from './compiled-cue-schema';
import { publishStorageAccounts } from './stack-env';

/** The most data accounts a test run takes, as `npm start -- --accounts` (local/start.ts). */
const MAX_ACCOUNTS = 8;

/**
 * The data accounts of the run (issue 37): TEST_STORAGE_ACCOUNTS, 1 by default. `npm run test:heavy` runs the
 * integration and end-to-end suites a second time with 2 (local/bootstrap.js).
 */
function accountCount(): number {
  const text = process.env.TEST_STORAGE_ACCOUNTS ?? '1';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_ACCOUNTS)
    throw new Error(`TEST_STORAGE_ACCOUNTS: expected a whole number from 1 to ${MAX_ACCOUNTS}, got "${text}"`);
  return n;
}

/**
 * Starts one local stack for the whole jest run: in-memory Azurite on free ports, one per data account (farms spread
 * over TEST_STORAGE_ACCOUNTS of them, as `npm start -- --accounts N`), and the runner serving the compiled app (dist/,
 * built by `npm test` before jest starts), no dataset. Workers are started after this and inherit `GATEWAY_URL`,
 * `AzureWebJobsStorage`, the accounts and `AUTH_MODE=local` from `process.env` (see stack-env.ts).
 * The stack's output goes to .local/logs/jest-stack.log, the first place to look when an e2e test fails. The
 * catalogues are parsed, and the CUE schema compiled, here once for every test file (parsed-catalogues.ts,
 * compiled-cue-schema.ts).
 */
export default async function globalSetup(): Promise<void> {
  const projectRoot = findProjectRoot(__dirname);
  if (!existsSync(runnerScript(projectRoot))) {
    throw new Error('dist/ is missing: run the tests with `npm test` (it compiles first) or `npm run build`');
  }
  const logDir = join(projectRoot, '.local/logs');
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, 'jest-stack.log'));
  const stack = await startStack({
    projectRoot,
    inMemory: true,
    gatewayPort: 0,
    accounts: accountCount(),
    // Registration checks SIEX codes against the official catalogues (data/siex/catalogues).
    catalogues: officialCataloguesDir(projectRoot),
    // Tests load data between requests: reference data is revalidated on every request instead of every minute.
    // SIEX retries and queue redeliveries are shortened so outage tests take seconds, not minutes.
    env: {
      AUTH_MODE: 'local',
      REFERENCE_CACHE_SECONDS: '0',
      SIEX_RETRY_BASE_MS: '20',
      SIEX_TIMEOUT_MS: '3000',
      // Test applications are dated from test/helpers/dataset.ts's ANCHOR, which allows for this.
      MAX_BACKDATE_DAYS: String(TEST_MAX_BACKDATE_DAYS),
      // A loaded machine (npm run test:stress) must make a request slower, never turn it away: the tests that fire
      // many requests at once wait their turn as long as the request budget allows. Shedding itself is tested on the
      // pipeline (test/unit/pipeline.test.ts, admission.test.ts) and measured by the peak bench.
      ADMISSION_WAIT_MS: '20000',
      // Webhooks are signed as on `npm start`, so the tests' receivers verify them (test/e2e/webhooks.test.ts).
      WEBHOOK_SIGNING_KEY: LOCAL_WEBHOOK_SIGNING_KEY,
    },
    services: [siexSimulatorService({ processingMs: 100 }), mailStubService()],
    runner: { hostJson: writeTestHostJson(projectRoot, logDir) },
    output: (service, line) => log.write(`[${service}] ${line}\n`),
  }).catch((err: unknown) => {
    log.end();
    throw err;
  });
  process.env.GATEWAY_URL = stack.gatewayUrl;
  process.env.SIEX_SIMULATOR_URL = stack.services.find((s) => s.name === 'siex-simulator')!.url;
  process.env.MAIL_STUB_URL = stack.services.find((s) => s.name === 'mail-stub')!.url;
  process.env.AzureWebJobsStorage = stack.storageConnectionString;
  publishStorageAccounts(stack.env.STORAGE_ACCOUNTS);
  process.env.AUTH_MODE = 'local';
  const catalogues = publishParsedCatalogues();
  const cueSchema = publishCompiledCueSchema();
  leaveForTeardown(async () => {
    await stack.stop();
    await new Promise<void>((resolve) => log.end(resolve));
    removeParsedCatalogues(catalogues);
    removeCompiledCueSchema(cueSchema);
  });
}
