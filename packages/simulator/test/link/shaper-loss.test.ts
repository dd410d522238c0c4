import { afterEach, describe, expect, it } from 'vitest';
import { PROFILES, seededRandom, withOverrides, type LinkLoss, type LinkProfile } from '../../src/link/index.ts';
import { closeAll, connect, startServer, startShaper, testProfile, until } from './helpers.ts';

afterEach(closeAll);

// Node timers may fire up to ~1 ms before performance.now() says they are due.
const TIMER_SLACK_MS = 2;

/** A stream whose every 4 bytes are their own offset: any byte reordered, lost or doubled shows. */
function numbered(bytes: number): Buffer {
  const b = Buffer.alloc(bytes);
  for (let i = 0; i + 4 <= bytes; i += 4) b.writeUInt32BE(i, i);
  return b;
}

interface Arrival {
  /** The stream offset just past the chunk. */
  readonly end: number;
  readonly at: number;
}

interface Transfer {
  received: Buffer;
  /** The chunks as they arrived at the far end. */
  arrivals: Arrival[];
  losses: LinkLoss[];
  shaper: Awaited<ReturnType<typeof startShaper>>;
}

/** Sends `bytes` ship → shore through a shaper on `profile` and waits for all of them. */
async function transfer(profile: LinkProfile, bytes: number, options: { seed?: number; loss?: boolean } = {}): Promise<Transfer> {
  const chunks: Buffer[] = [];
  const arrivals: Arrival[] = [];
  let got = 0;
  const sink = await startServer((s) =>
    s.on('data', (c: Buffer) => {
      chunks.push(c);
      got += c.length;
      arrivals.push({ end: got, at: performance.now() });
    }),
  );
  const shaper = await startShaper({
    profile,
    targetPort: sink.port,
    random: seededRandom(options.seed ?? 1),
    ...(options.loss === undefined ? {} : { loss: options.loss }),
  });
  const losses: LinkLoss[] = [];
  shaper.on('loss', (loss) => losses.push(loss));
  const client = await connect(shaper.port);
  client.write(numbered(bytes));
  await until(() => got >= bytes, 20_000);
  return { received: Buffer.concat(chunks), arrivals, losses, shaper };
}

/** When the byte at `offset` arrived. */
function arrivalOf(arrivals: readonly Arrival[], offset: number): number {
  const a = arrivals.find((x) => x.end > offset);
  if (!a) throw new Error(`byte ${offset} never arrived`);
  return a.at;
}

// 8 Mbit/s, 100 ms each way, no jitter (a delay is exactly 100 ms), 2 % of segments lost up.
const lossy = testProfile({ oneWayDelayMs: 100, jitterMs: 0, upKbps: 8_000, upLossPercent: 2, downLossPercent: 0 });

describe('LinkShaper packet loss', () => {
  it('delivers every byte in order although segments are lost, each loss holding the stream up a round trip', async () => {
    const bytes = 400_000; // 274 segments: about five lost
    const { received, arrivals, losses, shaper } = await transfer(lossy, bytes, { seed: 5 });

    // TCP is reliable: everything arrives, once, in order.
    expect(received.equals(numbered(bytes))).toBe(true);
    expect(shaper.bytes.up).toBe(bytes);

    expect(losses.length).toBeGreaterThan(0);
    for (const l of losses) {
      expect(l.direction).toBe('up');
      // One round trip (2 × 100 ms) per time the segment had to be sent.
      expect(l.stallMs % 200).toBe(0);
      expect(l.stallMs).toBeGreaterThanOrEqual(200);
    }
    // The first lost segment arrives a round trip after it was sent on top of its one-way delay,
    // and head-of-line blocking holds every later byte behind it. Measured from when the shaper's
    // schedule sent it, not from the arrival of the byte before it: on a loaded machine that byte
    // can itself arrive late, which shortened the gap between the two to 160 ms. (Later losses may
    // fall in the shadow of an earlier one, the bytes before them already held.)
    const first = losses[0];
    if (!first) throw new Error('no loss');
    const due = first.sentAt + lossy.oneWayDelayMs + first.stallMs - TIMER_SLACK_MS;
    expect(arrivalOf(arrivals, first.offset)).toBeGreaterThanOrEqual(due);
    expect(arrivalOf(arrivals, first.offset + 1460)).toBeGreaterThanOrEqual(due);

    const up = shaper.stats('up');
    expect(up.lostSegments).toBe(losses.reduce((n, l) => n + l.segments, 0));
    expect(up.stalledMs).toBe(losses.reduce((n, l) => n + l.stallMs, 0));
    expect(up.retransmittedBytes).toBeGreaterThan(0);
    expect(up.retransmittedBytes).toBeLessThanOrEqual(up.lostSegments * 1460);
    expect(up.windowCuts).toBe(losses.filter((l) => l.windowCut).length);
    expect(up.windowCuts).toBeGreaterThan(0);
    expect(shaper.stats('down').lostSegments).toBe(0);
  });

  it('loses the same segments every run for the same seed, other ones for another seed', async () => {
    const bytes = 300_000;
    const a = await transfer(lossy, bytes, { seed: 9 });
    const b = await transfer(lossy, bytes, { seed: 9 });
    const c = await transfer(lossy, bytes, { seed: 10 });
    const pattern = (t: Transfer) => t.losses.map((l) => [l.offset, l.segments, l.stallMs]);
    expect(a.losses.length).toBeGreaterThan(0);
    expect(pattern(b)).toEqual(pattern(a));
    expect(b.shaper.stats('up')).toMatchObject({ lostSegments: a.shaper.stats('up').lostSegments, stalledMs: a.shaper.stats('up').stalledMs });
    // Every lost segment starts on a segment boundary of the stream.
    for (const l of a.losses) expect(l.offset % 1460).toBe(0);
    expect(pattern(c)).not.toEqual(pattern(a));
  });

  it('halves the sender window on loss and, once the losses stop, grows it back until it no longer limits', async () => {
    // 4 Mbit/s, 40 ms round trip: the link holds 20 kB (14 segments) a round trip.
    const profile = testProfile({ oneWayDelayMs: 20, jitterMs: 0, upKbps: 4_000, upLossPercent: 5, downLossPercent: 0 });
    let got = 0;
    const sink = await startServer((s) => s.on('data', (c: Buffer) => (got += c.length)));
    const shaper = await startShaper({ profile, targetPort: sink.port, random: seededRandom(3) });
    const client = await connect(shaper.port);
    let sent = 0;
    const feed = (): void => {
      // Keep the sender busy: a steady 64 KiB ahead of what arrived.
      while (sent - got < 64 * 1024) {
        client.write(Buffer.alloc(8 * 1024));
        sent += 8 * 1024;
      }
    };
    const feeder = setInterval(feed, 5);
    try {
      feed();
      await until(() => shaper.stats('up').limitedSenders === 1, 10_000);
      expect(shaper.stats('up').windowCuts).toBeGreaterThan(0);
      // The link stops losing; the window grows a segment per round trip and stops limiting.
      shaper.setProfile({ ...profile, upLossPercent: 0 });
      const lostBefore = shaper.stats('up').lostSegments;
      await until(() => shaper.stats('up').limitedSenders === 0, 10_000);
      const gotAtRecovery = got;
      await until(() => got > gotAtRecovery + 100_000, 10_000);
      expect(shaper.stats('up').lostSegments).toBe(lostBefore);
    } finally {
      clearInterval(feeder);
    }
  });

  it('loses nothing with loss: false, on a loss-free profile, or at rate 0 (behaviour as before)', async () => {
    const off = await transfer(lossy, 300_000, { seed: 5, loss: false });
    expect(off.losses).toEqual([]);
    expect(off.shaper.lossEnabled).toBe(false);
    expect(off.shaper.stats('up')).toMatchObject({ lostSegments: 0, stalledMs: 0, retransmittedBytes: 0, windowCuts: 0, limitedSenders: 0 });
    expect(off.received.equals(numbered(300_000))).toBe(true);

    const clean = await transfer(withOverrides(PROFILES.FOURTHG, { oneWayDelayMs: 10, jitterMs: 0 }), 300_000, { seed: 5 });
    expect(clean.losses).toEqual([]);
    expect(clean.shaper.stats('up').lostSegments).toBe(0);
    expect(clean.shaper.lossEnabled).toBe(true);
  });
});
