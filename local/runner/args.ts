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

function intValue(flag: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${flag} needs an integer from ${min} to ${max}`);
  }
  return n;
}

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
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--root':
        args.root = value();
        break;
      case '--main':
        args.main = value();
        break;
      case '--host-json':
        args.hostJson = value();
        break;
      case '--port':
        args.port = intValue(flag, value(), 0, 65535);
        break;
      case '--hostname':
        args.hostname = value();
        break;
      case '--drain-timeout':
        args.drainTimeoutMs = intValue(flag, value(), 0, 3_600_000);
        break;
      case '--quiet':
        args.quiet = true;
        break;
      case '--verbose':
        args.verbose = true;
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return args;
}
