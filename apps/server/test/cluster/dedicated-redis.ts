import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A free TCP port on loopback (for a program that cannot bind port 0 and say which it got). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A redis-server of a test's own (no persistence), to pause or stop without touching the machine's
 * shared one. `client` is the test's own connection to it.
 */
export class DedicatedRedis {
  private constructor(
    readonly url: string,
    readonly client: Redis,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<DedicatedRedis> {
    const port = await freePort();
    const child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const url = `redis://127.0.0.1:${port}`;
    const client = new Redis(url, { lazyConnect: true, retryStrategy: () => 50 });
    client.on('error', () => undefined);
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await client.connect();
        await client.ping();
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        client.disconnect();
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return new DedicatedRedis(url, client, child);
  }

  /** Every client's commands wait (pub/sub too) for `ms`, as in a Redis stall. */
  async pause(ms: number): Promise<void> {
    await this.client.call('CLIENT', 'PAUSE', String(ms), 'ALL');
  }

  async stop(): Promise<void> {
    this.client.disconnect();
    if (this.child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}
