import { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { SIGNATURE_HEADER, verifySignature } from '../../shared/notify/webhook-signature';
import { webhookSecret } from '../../shared/notify/webhook-secret';
import { badControlRequest, readBody, sendJson, serve } from '../http-json';

/**
 * Webhook receiver: what an ERP's endpoint would be, on a developer's machine. It takes the gateway's signed job
 * events, checks each signature with the client's secrets (derived from the signing key it shares with the gateway, as
 * the gateway derives them: shared/notify/webhook-secret.ts) and shows every delivery with the secrets that sign it. `node dist/local/webhook-receiver/
 * main.js --port N` or `startWebhookReceiver({ port })`.
 *
 *   POST /hooks/{clientId}   a delivery for that client: 204, or 503 while `failNext` lasts (each try is shown)
 * Knobs
 *   POST /_control           { failNext: n, delayMs: ms }: fail the next n deliveries; answer each after ms (a slow
 *                            receiver, for the gateway's time-out)
 *   POST /_control/reset     forgets deliveries and knobs
 * Inspection
 *   GET /_inspect/deliveries every try, in order: { clientId, eventId, signature, verified, verifiedWith, status, body,
 *                            time }
 */

/** The receiver's default signing key: the local stack's WEBHOOK_SIGNING_KEY, no secret. */
export const LOCAL_WEBHOOK_SIGNING_KEY = 'siex-gateway local webhook signing key; not a secret';

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The secrets a delivery is checked against: a client's first twenty generations. A real receiver knows the one its
 * client configured; this one stands for every client of a developer's stack, however often each has rotated.
 */
const GENERATIONS = Array.from({ length: 20 }, (_, g) => g);

export interface ReceivedDelivery {
  clientId: string;
  eventId: string;
  signature: string;
  /** Whether the signature checks out with one of the client's secrets, within `toleranceSeconds` of the receiver's clock. */
  verified: boolean;
  /** Which of the client's secrets (their generations, webhook-secret.ts) sign it: two during a rotation's overlap. */
  verifiedWith: number[];
  /** What the receiver answered: 204, or 503 (failNext). */
  status: number;
  /** The event, parsed. */
  body: unknown;
  time: string;
}

export interface WebhookReceiverOptions {
  port?: number;
  host?: string;
  signingKey?: string;
  /** How far a signature's time may be from the receiver's clock (default 300 s). */
  toleranceSeconds?: number;
  log?: (line: string) => void;
}

export interface RunningWebhookReceiver {
  url: string;
  /** The URL of a client's hook, for its `webhook` in the back-office data. */
  hookUrl(clientId: string): string;
  stop(): Promise<void>;
}

const controlSchema = z
  .object({ failNext: z.number().int().min(0), delayMs: z.number().int().min(0).max(120_000) })
  .partial()
  .strict();

export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<RunningWebhookReceiver> {
  const signingKey = options.signingKey ?? LOCAL_WEBHOOK_SIGNING_KEY;
  const tolerance = options.toleranceSeconds ?? 300;
  const log = options.log ?? (() => {});
  let deliveries: ReceivedDelivery[] = [];
  let failNext = 0;
  let delayMs = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`);
    const method = req.method ?? 'GET';
    const body = (await readBody(req, MAX_BODY_BYTES, () => new Error('body too large'))).toString('utf8');
    if (url.pathname === '/_control' && method === 'POST') {
      let parsed;
      try {
        parsed = controlSchema.safeParse(JSON.parse(body || '{}'));
      } catch (e) {
        return sendJson(res, 400, { error: `not JSON: ${(e as Error).message}` });
      }
      if (!parsed.success) return sendJson(res, 400, badControlRequest(parsed.error));
      failNext = parsed.data.failNext ?? failNext;
      delayMs = parsed.data.delayMs ?? delayMs;
      return sendJson(res, 200, { failNext, delayMs });
    }
    if (url.pathname === '/_control/reset' && method === 'POST') {
      deliveries = [];
      failNext = 0;
      delayMs = 0;
      return sendJson(res, 200, { failNext, delayMs });
    }
    if (url.pathname === '/_inspect/deliveries' && method === 'GET') return sendJson(res, 200, deliveries);
    const hook = /^\/hooks\/([a-z0-9-]+)\/?$/.exec(url.pathname);
    if (!hook || method !== 'POST') return sendJson(res, 404, { error: `no ${method} ${url.pathname}` });

    const clientId = hook[1]!;
    const signature = String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? '');
    const verifiedWith = GENERATIONS.filter((g) =>
      verifySignature(webhookSecret(signingKey, clientId, g), signature, body, Date.now(), tolerance),
    );
    const verified = verifiedWith.length > 0;
    const status = failNext > 0 ? 503 : 204;
    if (failNext > 0) failNext--;
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      // shown as the text it was
    }
    const eventId = String(req.headers['siex-gateway-event-id'] ?? '');
    const time = new Date().toISOString();
    deliveries.push({ clientId, eventId, signature, verified, verifiedWith, status, body: parsed, time });
    const signed = verified ? `signed by secret ${verifiedWith.join(' and ')}` : 'SIGNATURE NOT VERIFIED';
    log(`${clientId} ${eventId}: ${signed}, answered ${status}`);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (status === 204) {
      res.writeHead(204);
      res.end();
      return;
    }
    return sendJson(res, status, { error: 'failing on purpose (knob failNext)' });
  }

  const server = await serve(handle, (res, e) => sendJson(res, 500, { error: e.message }), options);
  return { ...server, hookUrl: (clientId) => `${server.url}/hooks/${clientId}` };
}
