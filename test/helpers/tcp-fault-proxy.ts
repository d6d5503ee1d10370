import net from 'node:net';

/**
 * A TCP pass-through in front of a storage endpoint that a test can break the way storage breaks:
 * - `pass`: bytes flow both ways;
 * - `down`: nothing listens (connections are refused) and open connections are cut;
 * - `hang`: connections are accepted and what arrives is swallowed: no answer, ever.
 */
type TcpMode = 'pass' | 'down' | 'hang';

export interface TcpFaultProxy {
  port: number;
  mode(next: TcpMode): Promise<void>;
  stop(): Promise<void>;
}

export async function startTcpFaultProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpFaultProxy> {
  let current: TcpMode = 'pass';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (current === 'hang') {
      client.resume();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const close = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const cut = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const port = await listen(0);
  return {
    port,
    async mode(next) {
      cut();
      if (next === 'down') await close();
      else if (!server.listening) await listen(port);
      current = next;
    },
    async stop() {
      cut();
      await close();
    },
  };
}
