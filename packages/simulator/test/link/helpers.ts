import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { LinkShaper, PROFILES, withOverrides, type LinkProfile, type LinkShaperOptions } from '../../src/link/index.ts';

/** Things a test opened; `closeAll` in afterEach tears them down. */
const opened: (() => Promise<void> | void)[] = [];

export async function closeAll(): Promise<void> {
  const fns = opened.splice(0).reverse();
  for (const fn of fns) await fn();
}

/** A fast, zero-delay link; tests override just what they measure. */
export function testProfile(overrides: Partial<Omit<LinkProfile, 'name'>>): LinkProfile {
  return withOverrides(PROFILES.LEO, {
    oneWayDelayMs: 0,
    jitterMs: 0,
    upKbps: 1_000_000,
    downKbps: 1_000_000,
    ...overrides,
  });
}

export interface TestServer {
  readonly port: number;
  /** Sockets the server accepted, in order. */
  readonly sockets: net.Socket[];
}

/**
 * A target for the shaper ("shore"). `onSocket` decides what it does; the default echoes.
 */
export async function startServer(onSocket: (s: net.Socket) => void = (s) => s.pipe(s)): Promise<TestServer> {
  const sockets: net.Socket[] = [];
  const server = net.createServer({ allowHalfOpen: true }, (s) => {
    sockets.push(s);
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { port: address.port, sockets };
}

export async function startShaper(options: Omit<LinkShaperOptions, 'target'> & { targetPort: number }): Promise<LinkShaper> {
  const { targetPort, ...rest } = options;
  const shaper = new LinkShaper({ ...rest, target: { port: targetPort } });
  await shaper.listen();
  opened.push(() => shaper.close());
  return shaper;
}

export async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  socket.on('error', () => {});
  opened.push(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Resolves once `n` bytes have arrived on `socket` (rejects if it closes first). */
export function readBytes(socket: net.Socket, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      got += chunk.length;
      if (got >= n) {
        cleanup();
        resolve(Buffer.concat(chunks));
      }
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error(`socket closed after ${got} of ${n} bytes`));
    };
    const cleanup = (): void => {
      socket.off('data', onData);
      socket.off('close', onClose);
    };
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

export function waitFor(socket: net.Socket, event: 'close' | 'end'): Promise<void> {
  return new Promise((resolve) => {
    if (event === 'close' && socket.destroyed) resolve();
    else socket.once(event, () => resolve());
  });
}

/** Polls `predicate` every 10 ms until it holds; fails after `timeoutMs`. */
export async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export { randomBytes };

/** Milliseconds a transfer of `bytes` takes at `kbps`. */
export const transferMs = (bytes: number, kbps: number): number => (bytes * 8) / kbps;
