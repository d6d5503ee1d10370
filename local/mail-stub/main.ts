import { parseArgs } from 'node:util';
import { flagsOrExit, intFlag } from '../cli-args';
import { serveUntilStopped } from '../stop-signal';
import { MAIL_STUB_ACCESS_KEY, startMailStub } from './server';

/**
 * `node dist/local/mail-stub/main.js`: the e-mail stub as a process of its own (endpoints, knobs and inspection: see
 * server.ts). Exit codes: 0 after SIGINT / SIGTERM / parent exit, 1 when it cannot listen, 2 for bad flags.
 */

export const MAIL_STUB_USAGE = `usage: node dist/local/mail-stub/main.js [options]

Stands in for Azure Communication Services e-mail (what @azure/communication-email's beginSend uses) and keeps
every accepted e-mail in an outbox (GET /_inspect/outbox).

  --port N              HTTP port, 0 picks a free one (default 7082)
  --host ADDR           address to listen on (default 127.0.0.1)
  --access-key KEY      base64 access key requests must be signed with (default: a fixed local key)
  --verbose             one line per request
  --help                this text

Prints "Mail outbox listening on http://<address>:<port>", then "Connection string: endpoint=...;accesskey=..." (the
value for EMAIL_CONNECTION_STRING).`;

interface MailStubArgs {
  port: number;
  host: string;
  accessKey: string;
  verbose: boolean;
  help: boolean;
}

export function parseMailStubArgs(argv: string[]): MailStubArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'access-key': { type: 'string', default: MAIL_STUB_ACCESS_KEY },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(values['access-key'])) throw new Error('--access-key must be base64');
  return {
    port: intFlag('--port', values.port, { min: 0, max: 65535 }) ?? 7082,
    host: values.host,
    accessKey: values['access-key'],
    verbose: values.verbose,
    help: values.help,
  };
}

async function main(): Promise<void> {
  const args = flagsOrExit(() => parseMailStubArgs(process.argv.slice(2)), MAIL_STUB_USAGE);
  if (!args) return;
  const stub = await serveUntilStopped('Mail stub', () =>
    startMailStub({
      port: args.port,
      host: args.host,
      accessKey: args.accessKey,
      ...(args.verbose ? { log: (line: string) => process.stderr.write(`${line}\n`) } : {}),
    }),
  );
  process.stdout.write(`Mail outbox listening on ${stub.url}\nConnection string: ${stub.connectionString}\n`);
}

if (require.main === module) void main();
