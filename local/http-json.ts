import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { ZodError } from 'zod';

/** The HTTP plumbing of the local stand-ins for remote services (the SIEX simulator, the mail stub): JSON in and out. */

interface RunningHttpServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Serves `handle` on host (default 127.0.0.1) and port (0, the default, picks a free one). A handler that fails is
 * answered by `failure`, or its connection is cut when its answer has already begun.
 */
export async function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  failure: (res: ServerResponse, error: Error) => void,
  options: { port?: number; host?: string },
): Promise<RunningHttpServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) failure(res, e as Error);
      else res.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}

/** The whole request body; past maxBytes the request is cut and the promise fails with what `tooLarge` makes. */
export function readBody(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        reject(tooLarge());
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The 400 answer of a control endpoint to knobs its schema refuses: every issue, with where it is. */
export function badControlRequest(error: ZodError): { error: string; issues: string[] } {
  return {
    error: 'bad control request',
    issues: error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`),
  };
}
