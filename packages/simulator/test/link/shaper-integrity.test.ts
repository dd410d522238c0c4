import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LinkDirection } from '../../src/link/index.ts';
import {
  closeAll,
  connect,
  randomBytes,
  readBytes,
  sha256,
  sleep,
  startServer,
  startShaper,
  testProfile,
  until,
  waitFor,
} from './helpers.ts';

afterEach(closeAll);

describe('LinkShaper integrity and accounting', () => {
  it('preserves byte order and content both ways despite jitter, and counts every byte', async () => {
    const size = 512 * 1024;
    const echo = await startServer();
    const callbackTotals = { up: 0, down: 0 };
    const eventTotals = { up: 0, down: 0 };
    // ±15 ms of jitter against 10 ms segments would reorder them if the shaper let it.
    const shaper = await startShaper({
      profile: testProfile({ oneWayDelayMs: 20, jitterMs: 15, upKbps: 10_000, downKbps: 20_000 }),
      targetPort: echo.port,
      onDeliver: (direction, n) => (callbackTotals[direction] += n),
    });
    shaper.on('delivered', (direction: LinkDirection, n: number) => (eventTotals[direction] += n));
    const client = await connect(shaper.port);

    const payload = randomBytes(size);
    // Many writes of odd sizes, as an application would make them.
    for (let off = 0; off < size; off += 7_919) client.write(payload.subarray(off, Math.min(size, off + 7_919)));
    const back = await readBytes(client, size);

    expect(back.length).toBe(size);
    expect(sha256(back)).toBe(sha256(payload));
    expect(shaper.bytes).toEqual({ up: size, down: size });
    expect(callbackTotals).toEqual({ up: size, down: size });
    expect(eventTotals).toEqual({ up: size, down: size });
  });

  it('carries a half-close across the link after the data, one delay later', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: testProfile({ oneWayDelayMs: 50 }), targetPort: echo.port });
    const client = await connect(shaper.port);
    const received: Buffer[] = [];
    client.on('data', (c: Buffer) => received.push(c));

    const t0 = performance.now();
    client.end('last words');
    await waitFor(client, 'end');
    const elapsed = performance.now() - t0;

    expect(Buffer.concat(received).toString()).toBe('last words');
    // FIN up (50 ms), the echo server's FIN down (50 ms).
    expect(elapsed).toBeGreaterThanOrEqual(98);
  });

  it('pauses the sender while the link is slow, so its own write buffer grows, and resumes it', async () => {
    const size = 16 * 1024 * 1024;
    const kbps = 256; // 32 kB/s: queue bound is the 64 KiB minimum
    let received = 0;
    const sink = await startServer((s) => s.on('data', (c: Buffer) => (received += c.length)));
    const shaper = await startShaper({ profile: testProfile({ upKbps: kbps }), targetPort: sink.port });
    const client = await connect(shaper.port);

    const t0 = performance.now();
    const chunk = randomBytes(64 * 1024);
    for (let off = 0; off < size; off += chunk.length) client.write(chunk);
    await sleep(400);
    const elapsed = performance.now() - t0;
    const stats = shaper.stats('up');

    // The shaper read only about its bound and stopped reading...
    expect(stats.boundBytes).toBe(64 * 1024);
    expect(stats.queuedBytes).toBeLessThanOrEqual(stats.boundBytes + 64 * 1024);
    expect(stats.pausedSenders).toBe(1);
    // ...so the backlog stays with the sender (kernel buffers on loopback hold a few MiB at most).
    expect(client.writableLength).toBeGreaterThan(size / 2);
    // ...and what crossed the link is what the rate allows (plus a segment in hand).
    expect(received).toBeLessThanOrEqual((elapsed * kbps) / 8 + 1460);

    shaper.setProfile(testProfile({ upKbps: 1_000_000 }));
    await until(() => received >= size, 10_000);
    expect(client.writableLength).toBe(0);
    expect(shaper.stats('up').pausedSenders).toBe(0);
    expect(shaper.bytes.up).toBe(size);
  });

  it('tears the client down when the target refuses, and reports it', async () => {
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const address = free.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    await new Promise<void>((resolve) => free.close(() => resolve()));

    const shaper = await startShaper({ profile: testProfile({}), targetPort: address.port });
    const errors: Error[] = [];
    shaper.on('connectionError', (e: Error) => errors.push(e));
    const client = await connect(shaper.port);
    await waitFor(client, 'close');

    expect(errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ECONNREFUSED']);
    expect(shaper.connectionCount).toBe(0);
  });

  it('close() ends every proxied connection and stops listening', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: testProfile({}), targetPort: echo.port });
    const client = await connect(shaper.port);
    client.write('x');
    await readBytes(client, 1);
    const port = shaper.port;

    await shaper.close();
    await waitFor(client, 'close');

    expect(shaper.connectionCount).toBe(0);
    await expect(connect(port)).rejects.toThrow(/ECONNREFUSED/);
  });
});
