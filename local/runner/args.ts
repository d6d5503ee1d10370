import { readFlags } from '../cli-args';

/** Command-line flags of `node dist/local/runner/main.js`. */
export interface RunnerArgs {
  root: string;
  main?: string;
  hostJson?: string;
  port: number;
  hostname: string;
  quiet: boolean;
  verbose: boolean;
  drainTimeoutMs: number;
  help: boolean;
}

export const RUNNER_USAGE = `usage: node dist/local/runner/main.js [options]

Serves the function app in --root as the Azure Functions host would (HTTP and storage queue triggers).
Settings come from the environment (AzureWebJobsStorage, AUTH_MODE, ...).

  --root DIR            function app directory with package.json and host.json (default: current directory)
  --main GLOB           files to load instead of package.json "main" (relative to --root)
  --host-json FILE      host.json to honour instead of <root>/host.json (tests use short queue timings)
  --port N              HTTP port, 0 picks a free one (default 7071)
  --hostname ADDR       address to listen on (default 127.0.0.1)
  --drain-timeout MS    on SIGINT/SIGTERM, how long running invocations may finish (default 10000)
  --quiet               no per-invocation lines and no information logs from the app
  --verbose             also debug logs and the library's own logs
  --help                this text

Prints "Runner listening on http://<address>:<port>" once it serves requests.`;

export function parseRunnerArgs(argv: string[], cwd: string): RunnerArgs {
  const args: RunnerArgs = {
    root: cwd,
    port: 7071,
    hostname: '127.0.0.1',
    quiet: false,
    verbose: false,
    drainTimeoutMs: 10_000,
    help: false,
  };
  const help = () => (args.help = true);
  readFlags(
    argv,
    {
      '--root': (v) => (args.root = v.text()),
      '--main': (v) => (args.main = v.text()),
      '--host-json': (v) => (args.hostJson = v.text()),
      '--port': (v) => (args.port = v.int(0, 65535)),
      '--hostname': (v) => (args.hostname = v.text()),
      '--drain-timeout': (v) => (args.drainTimeoutMs = v.int(0, 3_600_000)),
      '--quiet': () => (args.quiet = true),
      '--verbose': () => (args.verbose = true),
      '--help': help,
      '-h': help,
    },
    { unknownAs: 'option' },
  );
  return args;
}
