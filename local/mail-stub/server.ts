import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { badControlRequest, readBody, sendJson, serve } from '../http-json';

/**
 * E-mail stub: the part of Azure Communication Services' e-mail REST API that `EmailClient.beginSend` and its poller
 * use, so the real @azure/communication-email SDK runs unchanged against it (with `allowInsecureConnection: true`,
 * since it is plain http). `node dist/local/mail-stub/main.js --port N` or `startMailStub({ port })`.
 *
 * Service endpoints (every one needs ?api-version=..., any value, and ACS access-key authentication)
 *   POST /emails:send               body { senderAddress, recipients: { to: [{ address }] , cc?, bcc? },
 *                                   content: { subject, plainText?, html? }, ... }; header Operation-Id (a new UUID
 *                                   when absent). → 202 { id, status: "Running" } with Operation-Location pointing at
 *                                   the operation. A second send with an Operation-Id already accepted answers that
 *                                   operation again and is not stored again (ACS's idempotent send).
 *                                   Malformed body → 400 { error: { code: "BadRequest", message } }.
 *   GET  /emails/operations/{id}    → 200 { id, status: "Succeeded" }; unknown → 404.
 *   Authentication: the SDK's HMAC-SHA256 scheme (headers x-ms-date, x-ms-content-sha256 and Authorization:
 *   "HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=<base64>", signed with the base64-decoded
 *   access key over "VERB\n<path and query>\n<date>;<host>;<content hash>"). A wrong key or content hash, a date
 *   more than 15 minutes off, or any other scheme (a bearer token) → 401 { error: { code: "Denied", ... } }.
 *   The access key is the one in the connection string the stub hands out (--access-key, default MAIL_STUB_ACCESS_KEY).
 *
 * Knobs
 *   POST /_control         { failNext: n }: the next n sends answer 503 (not stored), so retries can be tested
 *   POST /_control/reset   empties the outbox, forgets operations and statistics, failNext 0
 * Inspection
 *   GET /_inspect/outbox   every accepted e-mail, in order: { operationId, from, to, cc, bcc, subject, text, html, time }
 *                          (`to`, `cc`, `bcc`: addresses joined with ", "; text / html: "" when absent)
 *   GET /_inspect/stats    { sends (POST /emails:send received), accepted, duplicates (repeats of an accepted
 *                          Operation-Id), refused (401), failed (503 from failNext), polls }
 */

/** The stub's default access key: base64, like a real one, and no secret (printed in the connection string). */
export const MAIL_STUB_ACCESS_KEY = Buffer.from('siex-gateway local mail stub access key; not a secret').toString(
  'base64',
);
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface OutboxEntry {
  operationId: string;
  from: string;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  text: string;
  html: string;
  time: string;
}

export interface MailStubStats {
  sends: number;
  accepted: number;
  duplicates: number;
  refused: number;
  failed: number;
  polls: number;
}

export interface MailStubOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Base64 access key the HMAC signatures must be made with (default MAIL_STUB_ACCESS_KEY). */
  accessKey?: string;
  /** One line per request. */
  log?: (line: string) => void;
}

export interface RunningMailStub {
  url: string;
  /** `endpoint=<url>/;accesskey=<key>`, for EMAIL_CONNECTION_STRING. */
  connectionString: string;
  stop(): Promise<void>;
}

const addressSchema = z.object({ address: z.string().min(3), displayName: z.string().optional() });
const messageSchema = z.object({
  senderAddress: z.string().min(3),
  recipients: z.object({
    to: z.array(addressSchema).min(1),
    cc: z.array(addressSchema).optional(),
    bcc: z.array(addressSchema).optional(),
  }),
  content: z
    .object({ subject: z.string(), plainText: z.string().optional(), html: z.string().optional() })
    .refine((c) => c.plainText !== undefined || c.html !== undefined, 'content needs plainText or html'),
});
const controlSchema = z
  .object({ failNext: z.number().int().min(0) })
  .partial()
  .strict();

function acsError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } }, { 'x-ms-error-code': code });
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Why a request fails ACS access-key authentication, or undefined when it passes. Mirrors the SDK's signing
 * (@azure/communication-common, communicationAccessKeyCredentialPolicy).
 */
function hmacProblem(req: IncomingMessage, body: Buffer, accessKey: string, now = Date.now()): string | undefined {
  const auth = req.headers.authorization ?? '';
  const m = /^HMAC-SHA256 SignedHeaders=([^&]+)&Signature=(.+)$/.exec(auth);
  if (!m) return auth ? `unsupported authorization scheme ${auth.split(' ')[0]}` : 'no Authorization header';
  if (m[1]!.toLowerCase() !== 'x-ms-date;host;x-ms-content-sha256') return `unexpected SignedHeaders ${m[1]}`;
  const date = req.headers['x-ms-date'];
  const contentHash = req.headers['x-ms-content-sha256'];
  const host = req.headers.host;
  if (typeof date !== 'string' || typeof contentHash !== 'string' || !host)
    return 'x-ms-date, x-ms-content-sha256 and Host are required';
  const at = Date.parse(date);
  if (Number.isNaN(at) || Math.abs(now - at) > MAX_CLOCK_SKEW_MS)
    return `x-ms-date ${date} is more than 15 minutes off`;
  if (!safeEqual(createHash('sha256').update(body).digest('base64'), contentHash))
    return 'x-ms-content-sha256 does not match the body';
  const url = new URL(`http://${host}${req.url ?? '/'}`);
  const query = url.searchParams.toString();
  const pathAndQuery = query ? `${url.pathname}?${query}` : url.pathname;
  const stringToSign = `${(req.method ?? 'GET').toUpperCase()}\n${pathAndQuery}\n${date};${host};${contentHash}`;
  const expected = createHmac('sha256', Buffer.from(accessKey, 'base64')).update(stringToSign).digest('base64');
  return safeEqual(expected, m[2]!) ? undefined : 'signature mismatch (wrong access key?)';
}

/** What the stub holds: the accepted e-mails, their operations, the statistics and the failNext knob. */
class MailStubState {
  outbox: OutboxEntry[] = [];
  operations = new Map<string, { status: 'Succeeded' }>();
  stats: MailStubStats = { sends: 0, accepted: 0, duplicates: 0, refused: 0, failed: 0, polls: 0 };
  failNext = 0;
}

/** POST /_control: sets the knobs given; answers the knobs then in force. */
function control(stub: MailStubState, res: ServerResponse, body: Buffer): void {
  let parsed;
  try {
    parsed = controlSchema.safeParse(JSON.parse(body.toString('utf8') || '{}'));
  } catch (e) {
    return sendJson(res, 400, { error: `not JSON: ${(e as Error).message}` });
  }
  if (!parsed.success) return sendJson(res, 400, badControlRequest(parsed.error));
  if (parsed.data.failNext !== undefined) stub.failNext = parsed.data.failNext;
  sendJson(res, 200, { failNext: stub.failNext });
}

/** The e-mail of a send, as the outbox shows it; or the 400 answer for a body ACS would refuse. */
function parseMessage(body: Buffer, operationId: string): OutboxEntry | { refused: string } {
  let message;
  try {
    message = messageSchema.safeParse(JSON.parse(body.toString('utf8')));
  } catch (e) {
    return { refused: `The request body is not JSON: ${(e as Error).message}` };
  }
  if (!message.success)
    return { refused: message.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  const m = message.data;
  const list = (xs: { address: string }[] | undefined) => (xs ?? []).map((x) => x.address).join(', ');
  return {
    operationId,
    from: m.senderAddress,
    to: list(m.recipients.to),
    cc: list(m.recipients.cc),
    bcc: list(m.recipients.bcc),
    subject: m.content.subject,
    text: m.content.plainText ?? '',
    html: m.content.html ?? '',
    time: new Date().toISOString(),
  };
}

/**
 * POST /emails:send, authenticated: stored once per Operation-Id (a repeat answers the same operation), unless
 * failNext makes it a 503.
 */
function send(stub: MailStubState, req: IncomingMessage, res: ServerResponse, body: Buffer, apiVersion: string): void {
  const operationId = (req.headers['operation-id'] as string | undefined) ?? randomUUID();
  const host = req.headers.host ?? '127.0.0.1';
  const operationLocation = `http://${host}/emails/operations/${encodeURIComponent(operationId)}?api-version=${encodeURIComponent(apiVersion)}`;
  const accepted = () =>
    sendJson(res, 202, { id: operationId, status: 'Running' }, { 'operation-location': operationLocation });
  if (stub.operations.has(operationId)) {
    stub.stats.duplicates++;
    return accepted();
  }
  if (stub.failNext > 0) {
    stub.failNext--;
    stub.stats.failed++;
    return acsError(res, 503, 'ServiceUnavailable', 'The service is temporarily unavailable (knob failNext).');
  }
  const entry = parseMessage(body, operationId);
  if ('refused' in entry) return acsError(res, 400, 'BadRequest', entry.refused);
  stub.operations.set(operationId, { status: 'Succeeded' });
  stub.outbox.push(entry);
  stub.stats.accepted++;
  accepted();
}

/** GET /emails/operations/{id}, authenticated. */
function poll(stub: MailStubState, res: ServerResponse, id: string): void {
  const op = stub.operations.get(id);
  if (!op) return acsError(res, 404, 'NotFound', `no operation ${id}`);
  sendJson(res, 200, { id, status: op.status });
}

/** A request the stub has read, with its path made canonical. */
interface StubCall {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  path: string;
  body: Buffer;
}

/** Which service operation a request asks for, if any (the operation id as it is in the path). */
function serviceOperation(path: string, method: string): { send: true } | { poll: string } | undefined {
  if (path === '/emails:send' && method === 'POST') return { send: true };
  const pollMatch = /^\/emails\/operations\/([^/]+)$/.exec(path);
  if (pollMatch !== null && method === 'GET') return { poll: pollMatch[1]! };
  return undefined;
}

/** The service endpoints: an api-version and ACS access-key authentication first, then the send or the poll. */
function service(stub: MailStubState, accessKey: string, log: (line: string) => void, call: StubCall): void {
  const { req, res, url, body } = call;
  const operation = serviceOperation(call.path, req.method ?? 'GET');
  if (!operation) return acsError(res, 404, 'NotFound', `no operation ${req.method ?? 'GET'} ${url.pathname}`);
  if ('send' in operation) stub.stats.sends++;
  else stub.stats.polls++;
  const apiVersion = url.searchParams.get('api-version');
  if (!apiVersion)
    return acsError(
      res,
      400,
      'MissingApiVersionParameter',
      'The api-version query parameter (?api-version=) is required',
    );
  const denied = hmacProblem(req, body, accessKey);
  if (denied) {
    stub.stats.refused++;
    log(`refused: ${denied}`);
    return acsError(res, 401, 'Denied', `Denied by the resource provider (${denied}).`);
  }
  if ('send' in operation) return send(stub, req, res, body, apiVersion);
  poll(stub, res, decodeURIComponent(operation.poll));
}

export async function startMailStub(options: MailStubOptions = {}): Promise<RunningMailStub> {
  const accessKey = options.accessKey ?? MAIL_STUB_ACCESS_KEY;
  const log = options.log ?? (() => {});
  let stub = new MailStubState();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`);
    // A connection string's endpoint ends in "/", so the SDK may ask for "//emails:send".
    const path = url.pathname.replace(/^\/+/, '/').replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const body = await readBody(req, MAX_BODY_BYTES, () => new Error('body too large'));
    log(`${method} ${url.pathname}${url.search}`);
    if (path === '/_control' && method === 'POST') return control(stub, res, body);
    if (path === '/_control/reset' && method === 'POST') {
      stub = new MailStubState();
      return sendJson(res, 200, { failNext: stub.failNext });
    }
    if (path === '/_inspect/outbox' && method === 'GET') return sendJson(res, 200, stub.outbox);
    if (path === '/_inspect/stats' && method === 'GET') return sendJson(res, 200, stub.stats);
    service(stub, accessKey, log, { req, res, url, path, body });
  }

  const server = await serve(handle, (res, e) => acsError(res, 500, 'InternalServerError', e.message), options);
  return { ...server, connectionString: `endpoint=${server.url}/;accesskey=${accessKey}` };
}
