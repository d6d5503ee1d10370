import { RunningSiexSimulator, SIMULATOR_DEFAULT_CREDENTIALS, startSiexSimulator } from './server';

/**
 * `node dist/local/siex-simulator/main.js`: the SIEX simulator as a process of its own (knobs and inspection
 * endpoints: see server.ts). Exit codes: 0 after SIGINT / SIGTERM / parent exit, 1 when it cannot listen, 2 for bad
 * flags.
 */

export const SIMULATOR_USAGE = `usage: node dist/local/siex-simulator/main.js [options]

Serves SIEX's IUWS endpoints (comunicacion, crear, comprobarEstado) for local runs and tests.

  --port N              HTTP port, 0 picks a free one (default 7081)
  --host ADDR           address to listen on (default 127.0.0.1)
  --schema FILE         the official CUE schema (default <project>/../shared/siex/cue-schema-3.11.4.json)
  --username NAME       user comunicacion accepts (default ${SIMULATOR_DEFAULT_CREDENTIALS.username})
  --password SECRET     its password (default ${SIMULATOR_DEFAULT_CREDENTIALS.password})
  --processing-ms N     time from crear to FINALIZADO (default 300; knob processingMs)
  --latency-ms N        delay before every IUWS answer (default 0; knob latencyMs)
  --verbose             one line per request
  --help                this text

Prints "SIEX simulator listening on http://<address>:<port>" once it serves requests.`;

export interface SimulatorArgs {
  port: number;
  host: string;
  schemaPath?: string;
  username: string;
  password: string;
  processingMs?: number;
  latencyMs?: number;
  verbose: boolean;
  help: boolean;
}

function intValue(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} needs an integer from ${min} to ${max}`);
  return n;
}

export function parseSimulatorArgs(argv: string[]): SimulatorArgs {
  const args: SimulatorArgs = { port: 7081, host: '127.0.0.1', ...SIMULATOR_DEFAULT_CREDENTIALS, verbose: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--port':
        args.port = intValue(flag, value(), 0, 65535);
        break;
      case '--host':
        args.host = value();
        break;
      case '--schema':
        args.schemaPath = value();
        break;
      case '--username':
        args.username = value();
        break;
      case '--password':
        args.password = value();
        break;
      case '--processing-ms':
        args.processingMs = intValue(flag, value(), 0, 3_600_000);
        break;
      case '--latency-ms':
        args.latencyMs = intValue(flag, value(), 0, 600_000);
        break;
      case '--verbose':
        args.verbose = true;
        break;
      case '--help':
        args.help = true;
        break;
      default:
        throw new Error(`unknown flag ${argv[i]}`);
    }
  }
  return args;
}

async function main(): Promise<void> {
  let args: SimulatorArgs;
  try {
    args = parseSimulatorArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${SIMULATOR_USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${SIMULATOR_USAGE}\n`);
    return;
  }
  let simulator: RunningSiexSimulator;
  try {
    simulator = await startSiexSimulator({
      port: args.port,
      host: args.host,
      ...(args.schemaPath ? { schemaPath: args.schemaPath } : {}),
      username: args.username,
      password: args.password,
      knobs: { ...(args.processingMs !== undefined ? { processingMs: args.processingMs } : {}), ...(args.latencyMs !== undefined ? { latencyMs: args.latencyMs } : {}) },
      verbose: args.verbose,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (err) {
    process.stderr.write(`SIEX simulator failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    simulator.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // Started with an IPC channel (the local stack): when the parent goes away, so do we.
  if (process.connected) process.on('disconnect', shutdown);
  process.stdout.write(`SIEX simulator listening on ${simulator.url}\n`);
}

if (require.main === module) void main();
