import http from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A counting pass-through in front of Azurite: the gateway and the floor measurements both reach storage through it,
 * so both pay the same extra hop, and the count of requests it forwarded is the number of storage round trips.
 */
export interface StorageProxy extends RoundTrips {
  port: number;
  stop(): Promise<void>;
}

/** What a measurement reads of the proxies: the round trips forwarded since the last reset. */
export interface RoundTrips {
  count(): number;
  reset(): void;
}

export async function startStorageProxy(targetPort: number): Promise<StorageProxy> {
  let requests = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    requests++;
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers, agent },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', (e) => {
      res.writeHead(502);
      res.end(e.message);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => requests,
    reset: () => {
      requests = 0;
    },
    stop: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
