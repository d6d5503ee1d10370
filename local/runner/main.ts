import { RUNNER_USAGE, parseRunnerArgs } from './args';
import { createLogger, formatError } from './logger';
import { RunningRunner, startRunner } from './runner';

/**
 * `node dist/local/runner/main.js`: the local stand-in for the Functions host. Exit codes: 0 after a clean stop,
 * 1 when the app cannot start (the reason on stderr), 2 for bad flags.
 */
async function main(): Promise<void> {
  let args;
  try {
    args = parseRunnerArgs(process.argv.slice(2), process.cwd());
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${RUNNER_USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${RUNNER_USAGE}\n`);
    return;
  }
  const logger = createLogger({ quiet: args.quiet, verbose: args.verbose });
  // What the host sets for its Node.js worker; some libraries look at them.
  process.env.FUNCTIONS_WORKER_RUNTIME ??= 'node';
  process.env.AzureWebJobsScriptRoot ??= args.root;

  let runner: RunningRunner | undefined;
  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`Runner stopping (${reason})`);
    const done = runner ? runner.stop(args.drainTimeoutMs) : Promise.resolve();
    done.then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error('shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Started by the local stack with an IPC channel: when the parent goes away for any reason, so do we.
  if (process.connected) process.on('disconnect', () => shutdown('parent exited'));

  try {
    runner = await startRunner({
      root: args.root,
      main: args.main,
      hostJson: args.hostJson,
      port: args.port,
      hostname: args.hostname,
      env: process.env,
      logger,
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause !== undefined ? `\n${formatError(err.cause)}` : '';
    process.stderr.write(`Runner failed to start: ${err instanceof Error ? err.message : String(err)}${cause}\n`);
    process.exit(1);
  }
  process.stdout.write(`Runner listening on ${runner.url}\n`);
}

void main();
