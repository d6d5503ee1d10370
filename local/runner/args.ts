import { parseArgs } from 'node:util';
import { intFlag } from '../cli-args';
import { parseClockStart } from './clock-start';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './http-server';

/** Command-line flags of `node dist/local/runner/main.js`. */
interface RunnerArgs {
  root: string;
  main?: string;
  hostJson?: string;
  dataset?: string;
  telemetry?: string;
  /** Epoch ms the app's wall clock reads at start (`--clock-start`). */
  clockStart?: number;
  port: number;
  hostname: string;
  quiet: boolean;
  verbose: boolean;
  drainTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  help: boolean;
}

export const RUNNER_USAGE = `usage: node dist/local/runner/main.js [options]

Serves the function app in --root as the Azure Functions host would (HTTP and storage queue triggers).
Settings come from the environment (AzureWebJobsStorage, AUTH_MODE, ...).

  --root DIR            function app directory with package.json and host.json (default: current directory)
  --main GLOB           files to load instead of package.json "main" (relative to --root)
  --host-json FILE      host.json to honour instead of <root>/host.json (tests use short queue timings)
  --dataset FILE        the back-office dataset the stack imported: its clients' keys never appear in the log
  --telemetry FILE      also append the app's own log lines to FILE as they are, unredacted, one JSON object a line:
                        what the host would send to Application Insights (tests check it holds no key)
  --clock-start TIME    the app's clock reads TIME (ISO 8601 with its offset) at start and runs on from there: a test
                        plays a day of its choice (AUTH_MODE=local only)
  --port N              HTTP port, 0 picks a free one (default 7071)
  --hostname ADDR       address to listen on (default 127.0.0.1)
  --drain-timeout MS    on SIGINT/SIGTERM, how long running invocations may finish (default 10000)
  --headers-timeout MS  time a client has to send a request's headers (default ${DEFAULT_HEADERS_TIMEOUT_MS})
  --request-timeout MS  time a client has to send a whole request, headers and body (default ${DEFAULT_REQUEST_TIMEOUT_MS})
  --quiet               no per-invocation lines and no information logs from the app
  --verbose             also debug logs, the library's own logs and each request's headers (secrets redacted)
  -h, --help            this text

Prints "Runner listening on http://<address>:<port>" once it serves requests.`;

export function parseRunnerArgs(argv: string[], cwd: string): RunnerArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      root: { type: 'string' },
      main: { type: 'string' },
      'host-json': { type: 'string' },
      dataset: { type: 'string' },
      telemetry: { type: 'string' },
      'clock-start': { type: 'string' },
      port: { type: 'string' },
      hostname: { type: 'string', default: '127.0.0.1' },
      'drain-timeout': { type: 'string' },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const headersTimeoutMs =
    intFlag('--headers-timeout', values['headers-timeout'], { min: 1, max: 3_600_000 }) ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeoutMs =
    intFlag('--request-timeout', values['request-timeout'], { min: 1, max: 3_600_000 }) ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (headersTimeoutMs > requestTimeoutMs) throw new Error('--headers-timeout cannot be longer than --request-timeout');
  return {
    root: values.root ?? cwd,
    main: values.main,
    hostJson: values['host-json'],
    dataset: values.dataset,
    telemetry: values.telemetry,
    clockStart: values['clock-start'] === undefined ? undefined : parseClockStart(values['clock-start']),
    port: intFlag('--port', values.port, { min: 0, max: 65535 }) ?? 7071,
    hostname: values.hostname,
    quiet: values.quiet,
    verbose: values.verbose,
    drainTimeoutMs: intFlag('--drain-timeout', values['drain-timeout'], { min: 0, max: 3_600_000 }) ?? 10_000,
    headersTimeoutMs,
    requestTimeoutMs,
    help: values.help,
  };
}
