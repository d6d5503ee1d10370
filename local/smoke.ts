/**
 * `npm run smoke -- --url <gateway>`: the Postman collection (clients/postman/), a smoke test as shipped, run by
 * newman against any gateway holding the demo data (`npm start`, the sandbox of docs/sandbox.md). Prints newman's
 * report and a one-line summary; exits 1 when a request or an assertion failed.
 *
 *   npm run smoke                                          the local stack, demo keys
 *   npm run smoke -- --url https://apim.example/siex --sid-key K --api-key K
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import newman from 'newman';
import { buildDemoDataset } from './demo/build-dataset';
import { flagsOrExit, nonEmptyFlag } from './cli-args';
import { findProjectRoot } from './stack';

const SMOKE_USAGE = `usage: npm run smoke -- [--url URL] [--sid-key KEY] [--api-key KEY] [--quiet]

Runs clients/postman/siex-gateway.postman_collection.json with newman: every operation, chained and asserted.

  --url URL       the gateway (default http://127.0.0.1:7071, npm start's)
  --sid-key KEY   Ocp-Apim-Sid-Key (default the first demo client's)
  --api-key KEY   Ocp-Apim-Subscription-Key (default the first demo client's)
  --quiet         newman's report off: the summary line only
  -h, --help      this text`;

export interface SmokeOptions {
  url: string;
  sidKey: string;
  apiKey: string;
  quiet: boolean;
}

export interface SmokeSummary {
  requests: number;
  failedRequests: number;
  assertions: number;
  failedAssertions: number;
  /** Each failure, `<request>: <assertion or error>`. */
  failures: string[];
}

export function parseSmokeArgs(argv: string[]): SmokeOptions & { help: boolean } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      'sid-key': { type: 'string' },
      'api-key': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [demo] = buildDemoDataset().clients;
  return {
    url: (nonEmptyFlag('--url', values.url) ?? 'http://127.0.0.1:7071').replace(/\/+$/, ''),
    sidKey: nonEmptyFlag('--sid-key', values['sid-key']) ?? demo!.sidKey,
    apiKey: nonEmptyFlag('--api-key', values['api-key']) ?? demo!.apiKey,
    quiet: values.quiet,
    help: values.help,
  };
}

const COLLECTION_FILE = path.join(
  findProjectRoot(__dirname),
  'clients',
  'postman',
  'siex-gateway.postman_collection.json',
);

/** Runs the committed collection against the gateway; resolves with what passed and failed. */
export function runSmoke(options: SmokeOptions): Promise<SmokeSummary> {
  const collection = JSON.parse(readFileSync(COLLECTION_FILE, 'utf8')) as object;
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection,
        envVar: [
          { key: 'baseUrl', value: options.url },
          { key: 'sidKey', value: options.sidKey },
          { key: 'subscriptionKey', value: options.apiKey },
        ],
        reporters: options.quiet ? [] : ['cli'],
        // A request that never answers fails the run instead of hanging it.
        timeoutRequest: 60_000,
      },
      (err, summary) => {
        if (err) return reject(err);
        const { stats, failures } = summary.run;
        resolve({
          requests: stats.requests.total ?? 0,
          failedRequests: stats.requests.failed ?? 0,
          assertions: stats.assertions.total ?? 0,
          failedAssertions: stats.assertions.failed ?? 0,
          failures: failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`),
        });
      },
    );
  });
}

async function main(): Promise<number> {
  const args = flagsOrExit(() => parseSmokeArgs(process.argv.slice(2)), SMOKE_USAGE);
  if (!args) return 0;
  const summary = await runSmoke(args);
  console.log(
    `smoke ${args.url}: ${summary.requests} requests, ${summary.failedRequests} failed; ` +
      `${summary.assertions} assertions, ${summary.failedAssertions} failed`,
  );
  for (const failure of summary.failures) console.log(`  ${failure}`);
  return summary.failedRequests + summary.failedAssertions + summary.failures.length === 0 ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(2);
    },
  );
}
