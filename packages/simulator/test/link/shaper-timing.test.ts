import { afterEach, describe, expect, it } from 'vitest';
import {
  closeAll,
  connect,
  randomBytes,
  readBytes,
  sleep,
  startServer,
  startShaper,
  testProfile,
  transferMs,
  until,
} from './helpers.ts';

afterEach(closeAll);

// Node timers run on a millisecond loop clock and may fire up to ~1 ms before performance.now()
// says they are due; lower bounds allow for that and nothing more.
const TIMER_SLACK_MS = 2;

describe('LinkShaper timing', () => {
  it('applies the one-way delay in each direction: a round trip takes at least twice it', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: testProfile({ oneWayDelayMs: 100 }), targetPort: echo.port });
    const client = await connect(shaper.port);

    const t0 = performance.now();
    client.write('ping');
    const reply = await readBytes(client, 4);
    const rtt = performance.now() - t0;

    expect(reply.toString()).toBe('ping');
    expect(rtt).toBeGreaterThanOrEqual(200 - TIMER_SLACK_MS);
    expect(rtt).toBeLessThan(2_000);
  });

  it('caps throughput at the profile bandwidth', async () => {
    const size = 64 * 1024;
    const kbps = 1_000;
    let received = 0;
    let doneAt = 0;
    const sink = await startServer((s) =>
      s.on('data', (c: Buffer) => {
        received += c.length;
        if (received >= size) doneAt = performance.now();
      }),
    );
    const shaper = await startShaper({ profile: testProfile({ upKbps: kbps }), targetPort: sink.port });
    const client = await connect(shaper.port);

    const t0 = performance.now();
    client.write(randomBytes(size));
    await until(() => received >= size);
    const elapsed = doneAt - t0;

    // 64 KiB at 1 Mbit/s is 524 ms on the wire.
    expect(elapsed).toBeGreaterThanOrEqual(transferMs(size, kbps) - TIMER_SLACK_MS);
    expect(elapsed).toBeLessThan(transferMs(size, kbps) * 4 + 1_000);
    expect(received).toBe(size);
  });

  it('shares one direction between connections: two senders together take as long as their sum', async () => {
    const size = 32 * 1024;
    const kbps = 1_000;
    const doneAt = new Map<number, number>();
    const sink = await startServer((s) => {
      const index = sink.sockets.indexOf(s);
      let got = 0;
      s.on('data', (c: Buffer) => {
        got += c.length;
        if (got >= size) doneAt.set(index, performance.now());
      });
    });
    const shaper = await startShaper({ profile: testProfile({ upKbps: kbps }), targetPort: sink.port });
    const a = await connect(shaper.port);
    const b = await connect(shaper.port);
    await until(() => sink.sockets.length === 2);

    const t0 = performance.now();
    a.write(randomBytes(size));
    b.write(randomBytes(size));
    await until(() => doneAt.size === 2);
    const times = [...doneAt.values()].map((t) => t - t0);

    const together = transferMs(2 * size, kbps); // 524 ms; either alone would take 262 ms
    expect(Math.max(...times)).toBeGreaterThanOrEqual(together - TIMER_SLACK_MS);
    // Fair sharing: neither finishes at the single-connection time, both near the end.
    expect(Math.min(...times)).toBeGreaterThanOrEqual(together * 0.8);
  });

  it('shapes up and down independently, each at its own rate', async () => {
    const size = 32 * 1024;
    const upKbps = 500;
    const downKbps = 4_000;
    let upDoneAt = 0;
    const sink = await startServer((s) => {
      let got = 0;
      s.on('data', (c: Buffer) => {
        got += c.length;
        if (got >= size) upDoneAt = performance.now();
      });
      s.write(randomBytes(size));
    });
    const shaper = await startShaper({ profile: testProfile({ upKbps, downKbps }), targetPort: sink.port });
    const t0 = performance.now();
    const client = await connect(shaper.port);
    client.write(randomBytes(size));
    await readBytes(client, size);
    const down = performance.now() - t0;
    await until(() => upDoneAt > 0);
    const up = upDoneAt - t0;

    expect(down).toBeGreaterThanOrEqual(transferMs(size, downKbps) - TIMER_SLACK_MS); // 66 ms
    expect(up).toBeGreaterThanOrEqual(transferMs(size, upKbps) - TIMER_SLACK_MS); // 524 ms
    // Down is eight times faster and finishes first although both started together.
    expect(down).toBeLessThan(up);
    expect(shaper.bytes).toEqual({ up: size, down: size });
  });

  it('setProfile to a faster link speeds up data not yet serialised', async () => {
    const size = 64 * 1024;
    let received = 0;
    const sink = await startServer((s) => s.on('data', (c: Buffer) => (received += c.length)));
    const shaper = await startShaper({ profile: testProfile({ upKbps: 100 }), targetPort: sink.port });
    const client = await connect(shaper.port);

    const t0 = performance.now();
    client.write(randomBytes(size));
    await sleep(200);
    const beforeSwitch = received;
    shaper.setProfile(testProfile({ upKbps: 20_000 }));
    await until(() => received >= size);
    const elapsed = performance.now() - t0;

    // At 100 kbit/s 200 ms carry 2.5 kB (plus one 1460-byte segment in hand).
    expect(beforeSwitch).toBeLessThanOrEqual(2_500 + 2 * 1460);
    // 64 KiB at 100 kbit/s would take 5.2 s; after the switch the rest takes ~25 ms.
    expect(elapsed).toBeLessThan(transferMs(size, 100) / 2);
  });

  it('setProfile to a slower link slows data not yet serialised', async () => {
    const size = 256 * 1024;
    let received = 0;
    const sink = await startServer((s) => s.on('data', (c: Buffer) => (received += c.length)));
    const shaper = await startShaper({ profile: testProfile({ upKbps: 2_000 }), targetPort: sink.port });
    const client = await connect(shaper.port);

    client.write(randomBytes(size));
    await until(() => received > 0);
    shaper.setProfile(testProfile({ upKbps: 100 }));
    const atSwitch = received;
    const windowMs = 500;
    const t0 = performance.now();
    await sleep(windowMs);
    const inWindow = received - atSwitch;
    const window = performance.now() - t0;

    // What was already on the wire at 2 Mbit/s (one 2.5 kB segment), then 100 kbit/s: 12.5 B/ms.
    expect(inWindow).toBeLessThanOrEqual(2_500 + (window * 100) / 8 + 1460);
    // It still moves: the slow rate is a rate, not a stop.
    expect(shaper.stats('up').queuedBytes + shaper.stats('up').inFlightBytes).toBeGreaterThan(0);
    expect(received).toBeLessThan(size);
  });
});
