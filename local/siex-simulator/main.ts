import { parseArgs } from 'node:util';
import { flagsOrExit, intFlag } from '../cli-args';
import { serveUntilStopped } from '../stop-signal';
import { SIMULATOR_DEFAULT_CREDENTIALS, startSiexSimulator } from './server';

/**
 * `node dist/local/siex-simulator/main.js`: the SIEX simulator as a process of its own (knobs and inspection
 * endpoints: see server.ts). Exit codes: 0 after SIGINT / SIGTERM / parent exit, 1 when it cannot listen, 2 for bad
 * flags.
 */

export const SIMULATOR_USAGE = `usage: node dist/local/siex-simulator/main.js [options]

Serves SIEX's IUWS endpoints (comunicacion, crear, comprobarEstado) for local runs and tests.

  --port N              HTTP port, 0 picks a free one (default 7081)
  --host ADDR           address to listen on (default 127.0.0.1)
  --schema FILE         the official CUE schema (default <project>/data/siex/cue-schema-3.11.4.json)
  --username NAME       user comunicacion accepts (default ${SIMULATOR_DEFAULT_CREDENTIALS.username})
  --password SECRET     its password (default ${SIMULATOR_DEFAULT_CREDENTIALS.password})
  --processing-ms N     time from crear to FINALIZADO (default 300; knob processingMs)
  --latency-ms N        delay before every IUWS answer (default 0; knob latencyMs)
  --verbose             one line per request
  --help                this text

Prints "SIEX simulator listening on http://<address>:<port>" once it serves requests.`;

interface SimulatorArgs {
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

export function parseSimulatorArgs(argv: string[]): SimulatorArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      schema: { type: 'string' },
      username: { type: 'string', default: SIMULATOR_DEFAULT_CREDENTIALS.username },
      password: { type: 'string', default: SIMULATOR_DEFAULT_CREDENTIALS.password },
      'processing-ms': { type: 'string' },
      'latency-ms': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  return {
    port: intFlag('--port', values.port, { min: 0, max: 65535 }) ?? 7081,
    host: values.host,
    schemaPath: values.schema,
    username: values.username,
    password: values.password,
    processingMs: intFlag('--processing-ms', values['processing-ms'], { min: 0, max: 3_600_000 }),
    latencyMs: intFlag('--latency-ms', values['latency-ms'], { min: 0, max: 600_000 }),
    verbose: values.verbose,
    help: values.help,
  };
}

async function main(): Promise<void> {
  const args = flagsOrExit(() => parseSimulatorArgs(process.argv.slice(2)), SIMULATOR_USAGE);
  if (!args) return;
  const simulator = await serveUntilStopped('SIEX simulator', () =>
    startSiexSimulator({
      port: args.port,
      host: args.host,
      ...(args.schemaPath ? { schemaPath: args.schemaPath } : {}),
      username: args.username,
      password: args.password,
      knobs: {
        ...(args.processingMs !== undefined ? { processingMs: args.processingMs } : {}),
        ...(args.latencyMs !== undefined ? { latencyMs: args.latencyMs } : {}),
      },
      verbose: args.verbose,
      log: (line) => process.stderr.write(`${line}\n`),
    }),
  );
  process.stdout.write(`SIEX simulator listening on ${simulator.url}\n`);
}

if (require.main === module) void main();
