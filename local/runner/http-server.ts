import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { RegisteredFunction } from '../functions-core/core-api';
import { RpcHttpCookie, RpcHttpData, RpcInvocationResponse } from '../functions-core/types';
import { Invoker } from './invoke';
import { RunnerLogger } from './logger';
import { QueueOutputs, outputValue } from './outputs';
import { redactedHeaderLines, redactUrl } from './redact';
import { RouteTable } from './routes';
import { LocalPage } from './api-docs';

/** The host's own request size limit (`maxRequestBodySize`, 100 MB); the app enforces its smaller one itself. */
const MAX_REQUEST_BYTES = 100 * 1024 * 1024;

/**
 * How long a client may take to send a request's headers (Kestrel's RequestHeadersTimeout, which the Functions host
 * keeps), and the whole request, body included. Past either, the connection is answered 408 and closed, so a client
 * that declares a body and never sends it cannot hold a connection (and the runner's drain at shutdown) for ever.
 * Only receiving the request is timed: a slow handler is the app's business (functionTimeout).
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/**
 * How long an idle connection is kept open for its client's next request: Kestrel's KeepAliveTimeout default (130 s),
 * which the Functions host keeps. Node's own 5 s made every call after a few quiet seconds open a new connection, which
 * the host in Azure spares its callers (API Management reuses its connections), and which the peak bench's calls at
 * 1/100 of the peak, seconds apart, all paid.
 */
const KEEP_ALIVE_TIMEOUT_MS = 130_000;

export interface HttpFunction {
  fn: RegisteredFunction;
  triggerName: string;
}

interface HttpServerOptions {
  routes: RouteTable<HttpFunction>;
  invoker: Invoker;
  outputs: QueueOutputs;
  logger: RunnerLogger;
  /** Pages served at their exact path to GET and HEAD, before the functions' routes (the API reference). */
  pages?: ReadonlyMap<string, LocalPage>;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** Header values as the host hands them over: one string per name, repeated headers joined. */
function requestHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The query as the host's RPC request carries it (repeated keys joined with a comma); the URL keeps the original. */
function queryRecord(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }
  return query;
}

/** The body, or why there is none to hand over: over the limit, or the connection ended first (time-out, client). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'incomplete'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', () => resolve('incomplete'));
  });
}

function setCookieLine(cookie: RpcHttpCookie): string {
  const parts = [`${cookie.name ?? ''}=${cookie.value ?? ''}`];
  if (cookie.domain?.value) parts.push(`Domain=${cookie.domain.value}`);
  if (cookie.path?.value) parts.push(`Path=${cookie.path.value}`);
  const expires = cookie.expires?.value?.seconds;
  if (typeof expires === 'number') parts.push(`Expires=${new Date(expires * 1000).toUTCString()}`);
  if (typeof cookie.maxAge?.value === 'number') parts.push(`Max-Age=${cookie.maxAge.value}`);
  if (cookie.secure?.value) parts.push('Secure');
  if (cookie.httpOnly?.value) parts.push('HttpOnly');
  if (cookie.sameSite === 'lax') parts.push('SameSite=Lax');
  else if (cookie.sameSite === 'strict') parts.push('SameSite=Strict');
  else if (cookie.sameSite === 'explicitNone') parts.push('SameSite=None');
  return parts.join('; ');
}

function bodyBytes(http: RpcHttpData): Buffer {
  const body = http.body;
  if (!body) return Buffer.alloc(0);
  if (body.bytes) return Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
  if (typeof body.string === 'string') return Buffer.from(body.string, 'utf8');
  if (typeof body.json === 'string') return Buffer.from(body.json, 'utf8');
  if (body.stream) return Buffer.from(body.stream);
  return Buffer.alloc(0);
}

/** The HTTP output of an invocation: the `http` output binding (normally `$return`). */
function httpOutput(fn: RegisteredFunction, response: RpcInvocationResponse): RpcHttpData | undefined {
  for (const [name, binding] of Object.entries(fn.metadata.bindings)) {
    if (binding.direction === 'out' && String(binding.type).toLowerCase() === 'http') {
      const value = outputValue(response, name);
      if (value?.http) return value.http;
    }
  }
  return undefined;
}

// Framing is ours to decide (we send the whole body with its length), whatever the app put in its headers.
const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

function writeResponse(req: IncomingMessage, res: ServerResponse, http: RpcHttpData | undefined): number {
  if (!http) {
    // A handler that returns nothing: the host answers 204 with no body.
    res.writeHead(204).end();
    return 204;
  }
  const status = Number.parseInt(http.statusCode ?? '', 10) || 200;
  const body = status === 204 || status === 304 ? Buffer.alloc(0) : bodyBytes(http);
  for (const [name, value] of Object.entries(http.headers ?? {})) {
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    res.setHeader(name, value);
  }
  const cookies = (http.cookies ?? []).map(setCookieLine);
  if (cookies.length) {
    const existing = res.getHeader('set-cookie');
    const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    res.setHeader('set-cookie', [...before, ...cookies]);
  }
  res.setHeader('content-length', body.length);
  res.writeHead(status);
  res.end(req.method === 'HEAD' ? undefined : body);
  return status;
}

/**
 * Serves the app's HTTP functions. Each request becomes an RPC-shaped HTTP trigger input (method, absolute URL,
 * headers, query, route params, body bytes untouched), is run through the invoker, and the RPC response is written
 * back (status, headers, cookies, body). Unknown route or method: 404, empty body. Handler error: 500, empty body.
 */
export class GatewayHttpServer {
  readonly server: Server;
  readonly #o: HttpServerOptions;
  #closing = false;

  constructor(options: HttpServerOptions) {
    this.#o = options;
    const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.server = createServer(
      {
        headersTimeout,
        requestTimeout,
        // Node checks both limits on this interval (30 s by default, which would stretch a short limit a lot).
        connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeout / 4)),
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      },
      (req, res) => {
        this.#handle(req, res).catch((err: unknown) => {
          options.logger.error(`${req.method} ${redactUrl(req.url ?? '/')}: request failed`, err);
          if (!res.headersSent) res.writeHead(500, { 'content-length': 0 });
          res.end();
        });
      },
    );
  }

  listen(port: number, hostname: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, hostname, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  /** Stops accepting connections; requests already being handled complete. */
  stopAccepting(): Promise<void> {
    this.#closing = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    return closed;
  }

  /** Drops whatever connections are left (after the drain period). */
  destroyConnections(): void {
    this.server.closeAllConnections();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const rawUrl = req.url ?? '/';
    const method = (req.method ?? 'GET').toUpperCase();
    // Before anything is logged: a key this request carries in a header is hidden wherever else it appears.
    this.#o.logger.learnKeys(requestHeaders(req));
    const log = (status: number | 'incomplete') =>
      this.#o.logger.invocation(
        `${method} ${redactUrl(rawUrl)} ${status} ${Math.round(performance.now() - started)}ms`,
        () => redactedHeaderLines(requestHeaders(req)),
      );

    if (this.#closing) {
      res.writeHead(503, { connection: 'close', 'content-length': 0 }).end();
      return log(503);
    }
    const q = rawUrl.indexOf('?');
    const pathname = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    const search = q >= 0 ? rawUrl.slice(q) : '';
    const page = method === 'GET' || method === 'HEAD' ? this.#o.pages?.get(pathname) : undefined;
    if (page) {
      req.resume();
      const body = page.body();
      res.writeHead(200, { ...page.headers, 'content-length': body.length });
      res.end(method === 'HEAD' ? undefined : body);
      return log(200);
    }
    const match = this.#o.routes.match(method, pathname);
    if (!match) {
      req.resume();
      res.writeHead(404, { 'content-length': 0 }).end();
      return log(404);
    }
    const body = await readBody(req, MAX_REQUEST_BYTES);
    // Node has answered 408 and closed the connection when the client was too slow; nothing is left to answer.
    if (body === 'incomplete') return log(body);
    if (body === 'too-large') {
      res.writeHead(413, { connection: 'close', 'content-length': 0 }).end();
      return log(413);
    }

    const { fn, triggerName } = match.target;
    const hostHeader =
      req.headers.host ?? `${(req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '')}:${req.socket.localPort}`;
    const http: RpcHttpData = {
      method,
      url: `http://${hostHeader}${rawUrl}`,
      headers: requestHeaders(req),
      query: queryRecord(search),
      params: match.params,
      body: { bytes: body },
    };
    let status: number;
    // Shutting down while this ran: close the connection after the response rather than keep it alive.
    const closeIfStopping = () => {
      if (this.#closing && !res.headersSent) res.setHeader('connection', 'close');
    };
    try {
      const response = await this.#o.invoker.invoke(fn, {
        inputData: [{ name: triggerName, data: { http } }],
        traceParent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined,
      });
      await this.#o.outputs.flush(fn, response);
      closeIfStopping();
      status = writeResponse(req, res, httpOutput(fn, response));
    } catch (err) {
      this.#o.invoker.logFailure(fn.metadata.name, err);
      closeIfStopping();
      if (!res.headersSent) res.writeHead(500, { 'content-length': 0 });
      res.end();
      status = 500;
    }
    log(status);
  }
}
