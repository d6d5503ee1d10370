import { parseArgs } from 'node:util';
import { flagsOrExit, intFlag } from '../cli-args';
import { serveUntilStopped } from '../stop-signal';
import { LOCAL_WEBHOOK_SIGNING_KEY, startWebhookReceiver } from './server';

/**
 * `node dist/local/webhook-receiver/main.js`: the webhook receiver as a process of its own (endpoints, knobs and
 * inspection: see server.ts). Exit codes: 0 after SIGINT / SIGTERM / parent exit, 1 when it cannot listen, 2 for bad
 * flags.
 */

export const WEBHOOK_RECEIVER_USAGE = `usage: node dist/local/webhook-receiver/main.js [options]

Stands in for an ERP's webhook endpoint: takes the gateway's signed job events at POST /hooks/<client id>, checks
each signature and shows every delivery (GET /_inspect/deliveries).

  --port N              HTTP port, 0 picks a free one (default 7083)
  --host ADDR           address to listen on (default 127.0.0.1)
  --signing-key KEY     the gateway's WEBHOOK_SIGNING_KEY (default: a fixed local key)
  --help                this text

Prints "Webhook receiver listening on http://<address>:<port>".`;

interface ReceiverArgs {
  port: number;
  host: string;
  signingKey: string;
  help: boolean;
}

export function parseWebhookReceiverArgs(argv: string[]): ReceiverArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'signing-key': { type: 'string', default: LOCAL_WEBHOOK_SIGNING_KEY },
      help: { type: 'boolean', default: false },
    },
  });
  if (values['signing-key'].length < 32) throw new Error('--signing-key must be at least 32 characters');
  return {
    port: intFlag('--port', values.port, { min: 0, max: 65535 }) ?? 7083,
    host: values.host,
    signingKey: values['signing-key'],
    help: values.help,
  };
}

async function main(): Promise<void> {
  const args = flagsOrExit(() => parseWebhookReceiverArgs(process.argv.slice(2)), WEBHOOK_RECEIVER_USAGE);
  if (!args) return;
  const receiver = await serveUntilStopped('Webhook receiver', () =>
    startWebhookReceiver({
      port: args.port,
      host: args.host,
      signingKey: args.signingKey,
      // Every delivery is shown: seeing them is what the receiver is for.
      log: (line: string) => process.stdout.write(`${line}\n`),
    }),
  );
  process.stdout.write(`Webhook receiver listening on ${receiver.url}\n`);
}

if (require.main === module) void main();
