import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** What the client got: the gateway's status, or the fault's. */
  answered: number;
}

/**
 * When a fault hits a request: `instead` answers it without forwarding (the gateway never sees it), `after`
 * forwards it and then drops the gateway's answer (the request took effect, the client never learns how).
 */
interface Fault {
  status: number;
  retryAfterSeconds?: number;
  mode: 'instead' | 'after';
  /** Matching requests to let through untouched before this one hits. */
  skip?: number;
}

export interface FaultProxy {
  url: string;
  seen: SeenRequest[];
  /** The next request whose path starts with `pathPrefix` (and method, when given) gets `fault`. */
  failNext(method: string, pathPrefix: string, fault: Fault): void;
  stop(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A real HTTP proxy in front of the gateway that can answer 429 or 5xx where the gateway would not, so a client's
 * retry behaviour is tested against real sockets and the real gateway behind.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const faults: { method: string; pathPrefix: string; fault: Fault }[] = [];
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const body = await bodyOf(req);
      const i = faults.findIndex((f) => f.method === req.method && path.startsWith(f.pathPrefix));
      const skip = i >= 0 ? (faults[i].fault.skip ?? 0) : 0;
      if (skip > 0) faults[i] = { ...faults[i], fault: { ...faults[i].fault, skip: skip - 1 } };
      const fault = i >= 0 && skip === 0 ? faults.splice(i, 1)[0].fault : undefined;
      const problem = (status: number) => {
        res.writeHead(status, {
          'Content-Type': 'application/problem+json',
          ...(fault?.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : {}),
        });
        res.end(
          JSON.stringify({
            type: 'about:blank',
            title: 'injected',
            status,
            detail: 'fault injected by the test proxy',
            errors: [],
          }),
        );
        seen.push({ method: req.method ?? '', path, idempotencyKey, answered: status });
      };
      if (fault?.mode === 'instead') return problem(fault.status);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const upstream = await fetch(`${target}${path}`, {
        method: req.method,
        headers,
        body: body.length ? body : undefined,
      });
      const text = Buffer.from(await upstream.arrayBuffer());
      if (fault) return problem(fault.status);
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) out[k] = v;
      });
      res.writeHead(upstream.status, out).end(text);
      seen.push({ method: req.method ?? '', path, idempotencyKey, answered: upstream.status });
    })().catch((e: unknown) => {
      res.writeHead(502).end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    failNext: (method, pathPrefix, fault) => faults.push({ method, pathPrefix, fault }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
