import net from 'node:net';
import { freePort } from '../reliability/server-process';

/**
 * A TCP relay on 127.0.0.1 in front of a real service (PostgreSQL, Redis), for taking the service
 * away from the server under test and bringing it back without touching the service itself:
 * `down()` cuts every open connection and stops listening (a connection attempt is then refused,
 * as when the service's machine is gone), `up()` listens again on the same port.
 */
export interface TcpProxy {
  port: number;
  /** Connections relayed so far. */
  readonly connections: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, options: { listening?: boolean } = {}): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let connections = 0;
  let server: net.Server | undefined;

  const up = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      const listening = net.createServer((client) => {
        connections += 1;
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          // A cut connection is the point of this relay; its errors are expected.
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        server = listening;
        resolve();
      });
    });

  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      const closing = server;
      server = undefined;
      closing.close(() => resolve());
    });

  if (options.listening !== false) await up();
  return {
    port,
    get connections() {
      return connections;
    },
    up,
    down,
    close: down,
  };
}
