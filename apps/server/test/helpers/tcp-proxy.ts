import { type AddressInfo, type Server, type Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of a real service (PostgreSQL, Redis, NATS): `cut` is the
 * service going away for the server under test (connections dropped, new ones refused), `restore`
 * brings it back on the same port. `stall` is a service that stops answering with its connections
 * open (a slow or hung store): bytes either way are held in the proxy, new connections are accepted
 * and held too; `resume` delivers what was held, in order, and lets traffic flow again. The shared
 * service itself is never stopped.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stall(): void;
  resume(): void;
}

export async function tcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  /** Writes held while stalled, in the order they arrived. */
  let held: (() => void)[] | undefined;
  let server: Server | undefined;
  let port = 0;
  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      const write = () => {
        if (!to.destroyed) to.write(chunk);
      };
      if (held) held.push(write);
      else write();
    });
    from.on('end', () => {
      if (held) held.push(() => to.end());
      else to.end();
    });
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection(targetPort, targetHost);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => {
            sockets.delete(s);
            (s === client ? upstream : client).destroy();
          });
        }
        forward(client, upstream);
        forward(upstream, client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server?.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    cut: () =>
      new Promise<void>((resolve) => {
        held = undefined;
        if (!server?.listening) return resolve();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
    restore: listen,
    stall: () => {
      held ??= [];
    },
    resume: () => {
      const writes = held ?? [];
      held = undefined;
      for (const write of writes) write();
    },
  };
}
