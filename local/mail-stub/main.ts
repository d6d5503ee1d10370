import { MAIL_STUB_ACCESS_KEY, RunningMailStub, startMailStub } from './server';

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

export interface MailStubArgs {
  port: number;
  host: string;
  accessKey: string;
  verbose: boolean;
  help: boolean;
}

export function parseMailStubArgs(argv: string[]): MailStubArgs {
  const args: MailStubArgs = { port: 7082, host: '127.0.0.1', accessKey: MAIL_STUB_ACCESS_KEY, verbose: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error('--port needs an integer from 0 to 65535');
        args.port = n;
        break;
      }
      case '--host':
        args.host = value();
        break;
      case '--access-key': {
        const key = value();
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key)) throw new Error('--access-key must be base64');
        args.accessKey = key;
        break;
      }
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
  let args: MailStubArgs;
  try {
    args = parseMailStubArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${MAIL_STUB_USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${MAIL_STUB_USAGE}\n`);
    return;
  }
  let stub: RunningMailStub;
  try {
    stub = await startMailStub({
      port: args.port,
      host: args.host,
      accessKey: args.accessKey,
      ...(args.verbose ? { log: (line: string) => process.stderr.write(`${line}\n`) } : {}),
    });
  } catch (err) {
    process.stderr.write(`Mail stub failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stub.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // Started with an IPC channel (the local stack): when the parent goes away, so do we.
  if (process.connected) process.on('disconnect', shutdown);
  process.stdout.write(`Mail outbox listening on ${stub.url}\nConnection string: ${stub.connectionString}\n`);
}

if (require.main === module) void main();
