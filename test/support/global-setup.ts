import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { officialCataloguesDir } from '../../local/official-catalogues';
import { findProjectRoot, startStack } from '../../local/stack';
import { runnerScript } from '../../local/runner/process';

/**
 * Starts one local stack for the whole jest run: in-memory Azurite on free ports and the runner serving the
 * compiled app (dist/, built by `npm test` before jest starts), no dataset. Workers are started after this and
 * inherit `GATEWAY_URL`, `AzureWebJobsStorage` and `AUTH_MODE=local` from `process.env` (see stack-env.ts).
 * The stack's output goes to .local/logs/jest-stack.log, the first place to look when an e2e test fails.
 */
/** Where the running stack is left for global-teardown.ts (both run in jest's main process). */
const STACK_KEY = '__siexLocalStack';

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
    // Registration checks SIEX codes against the official catalogues, which CI has beside the project.
    catalogues: officialCataloguesDir(projectRoot) ?? undefined,
    // Tests load data between requests: reference data is revalidated on every request instead of every minute.
    env: { AUTH_MODE: 'local', REFERENCE_CACHE_SECONDS: '0' },
    output: (service, line) => log.write(`[${service}] ${line}\n`),
  }).catch((err: unknown) => {
    log.end();
    throw err;
  });
  process.env.GATEWAY_URL = stack.gatewayUrl;
  process.env.AzureWebJobsStorage = stack.storageConnectionString;
  process.env.AUTH_MODE = 'local';
  (globalThis as Record<string, unknown>)[STACK_KEY] = {
    stop: async () => {
      await stack.stop();
      await new Promise<void>((resolve) => log.end(resolve));
    },
  };
}
