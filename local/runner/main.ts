import { flagsOrExit } from '../cli-args';
import { onStopSignal } from '../stop-signal';
import { RUNNER_USAGE, parseRunnerArgs } from './args';
import { startClockAt } from './clock-start';
import { appendFileSync, readFileSync } from 'node:fs';
import { createLogger, formatError } from './logger';
import { datasetKeys, Secrets } from './redact';
import { RunningRunner, startRunner } from './runner';

/** The client keys of the dataset file given with --dataset; a file that cannot be read stops the runner, saying so. */
function datasetSecrets(file: string): string[] {
  try {
    return datasetKeys(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    process.stderr.write(`Runner failed to start: --dataset ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}

/**
 * `node dist/local/runner/main.js`: the local stand-in for the Functions host. Exit codes: 0 after a clean stop,
 * 1 when the app cannot start (the reason on stderr), 2 for bad flags.
 */
async function main(): Promise<void> {
  const args = flagsOrExit(() => parseRunnerArgs(process.argv.slice(2), process.cwd()), RUNNER_USAGE);
  if (!args) return;
  // Every key the runner knows is hidden from its output, whatever line it turns up in (local/runner/redact.ts).
  const secrets = new Secrets();
  secrets.addSettings(process.env);
  if (args.dataset) for (const key of datasetSecrets(args.dataset)) secrets.add(key);
  const telemetry = args.telemetry;
  const logger = createLogger({
    quiet: args.quiet,
    verbose: args.verbose,
    secrets,
    ...(telemetry ? { telemetry: (entry) => appendFileSync(telemetry, `${JSON.stringify(entry)}\n`) } : {}),
  });
  if (args.clockStart !== undefined) {
    try {
      startClockAt(args.clockStart, process.env);
    } catch (e) {
      process.stderr.write(`Runner failed to start: ${(e as Error).message}\n`);
      process.exit(1);
    }
  }
  // What the host sets for its Node.js worker; some libraries look at them.
  process.env.FUNCTIONS_WORKER_RUNTIME ??= 'node';
  process.env.AzureWebJobsScriptRoot ??= args.root;

  let runner: RunningRunner | undefined;
  onStopSignal((reason) => {
    logger.info(`Runner stopping (${reason})`);
    const done = runner ? runner.stop(args.drainTimeoutMs) : Promise.resolve();
    done.then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('shutdown failed', err);
        process.exit(1);
      },
    );
  });

  try {
    runner = await startRunner({
      root: args.root,
      main: args.main,
      hostJson: args.hostJson,
      port: args.port,
      hostname: args.hostname,
      headersTimeoutMs: args.headersTimeoutMs,
      requestTimeoutMs: args.requestTimeoutMs,
      env: process.env,
      logger,
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause !== undefined ? `\n${formatError(err.cause)}` : '';
    const reason = `${err instanceof Error ? err.message : String(err)}${cause}`;
    process.stderr.write(`Runner failed to start: ${secrets.scrub(reason)}\n`);
    process.exit(1);
  }
  process.stdout.write(`Runner listening on ${runner.url}\n`);
}

void main();
