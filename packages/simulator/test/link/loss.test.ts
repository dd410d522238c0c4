import { describe, expect, it } from 'vitest';
import {
  CongestionWindow,
  LOSS_SEGMENT_BYTES,
  LossDraw,
  PROFILES,
  bytesIn,
  lossRate,
  seededRandom,
  serialisationMs,
  type LinkProfileName,
} from '../../src/link/index.ts';

const MSS = LOSS_SEGMENT_BYTES;

/** Carries `total` bytes through `draw` in chunks from `sizes` (cycled); returns the lost segments' byte offsets. */
function lossOffsets(draw: LossDraw, total: number, sizes: readonly number[]): number[] {
  const out: number[] = [];
  let k = 0;
  while (draw.offset < total) {
    const size = Math.min(sizes[k++ % sizes.length] ?? MSS, total - draw.offset);
    // As the shaper does: a chunk ends where the next lost segment begins.
    const before = draw.bytesBeforeLoss();
    const n = before > 0 ? Math.min(size, before) : size;
    const at = draw.offset;
    const lost = draw.carry(n);
    for (let i = 0; i < lost; i++) out.push(at);
  }
  return out;
}

describe('loss per profile', () => {
  it('loses on the satellite links, more on the smaller ones, and not on 4G', () => {
    const up = (name: LinkProfileName) => lossRate(PROFILES[name], 'up');
    expect(up('VSAT')).toBe(0.005);
    expect(up('FBB')).toBe(0.01);
    expect(up('IRIDIUM')).toBe(0.02);
    expect(up('FOURTHG')).toBe(0);
    expect(up('LEO')).toBeLessThan(up('VSAT'));
    expect(lossRate(PROFILES.OFFLINE, 'down')).toBe(0);
    expect(lossRate({ ...PROFILES.VSAT, downLossPercent: 3 }, 'down')).toBe(0.03);
  });
});

describe('LossDraw', () => {
  it.each([
    ['VSAT', 1],
    ['FBB', 2],
    ['IRIDIUM', 3],
  ] as const)('loses about the %s share of 200,000 segments (seed %i)', (name, seed) => {
    const rate = lossRate(PROFILES[name], 'up');
    const draw = new LossDraw(seededRandom(seed), rate);
    const segments = 200_000;
    const lost = lossOffsets(draw, segments * MSS, [MSS, 2_500, 700, 9_000]).length;
    // Binomial: the standard deviation is sqrt(n p) ≈ 32–63 losses; allow 10 %.
    expect(lost / segments).toBeGreaterThan(rate * 0.9);
    expect(lost / segments).toBeLessThan(rate * 1.1);
  });

  it('loses the same bytes for the same seed however the stream is chunked', () => {
    const a = lossOffsets(new LossDraw(seededRandom(7), 0.02), 2_000_000, [MSS]);
    const b = lossOffsets(new LossDraw(seededRandom(7), 0.02), 2_000_000, [100, 64_000, 3_000, 1]);
    expect(a.length).toBeGreaterThan(10);
    expect(b).toEqual(a);
    // Each loss starts a segment, and a chunk starts there.
    for (const at of a) expect(at % MSS).toBe(0);
    const c = lossOffsets(new LossDraw(seededRandom(8), 0.02), 2_000_000, [MSS]);
    expect(c).not.toEqual(a);
  });

  it('loses nothing at rate 0, and picks up a new rate from where the stream is', () => {
    const draw = new LossDraw(seededRandom(3), 0);
    expect(draw.bytesBeforeLoss()).toBe(Infinity);
    expect(draw.carry(10_000_000)).toBe(0);
    draw.setRate(1);
    expect(draw.bytesBeforeLoss()).toBeLessThanOrEqual(MSS);
    draw.setRate(0);
    expect(draw.carry(10_000_000)).toBe(0);
  });

  it('sends a lost segment again until it gets through, usually once', () => {
    const draw = new LossDraw(seededRandom(11), 0.2);
    const counts = Array.from({ length: 10_000 }, () => draw.retransmissions());
    expect(Math.min(...counts)).toBe(1);
    const again = counts.filter((n) => n > 1).length / counts.length;
    expect(again).toBeGreaterThan(0.17);
    expect(again).toBeLessThan(0.23);
    expect(new LossDraw(seededRandom(11), 0).retransmissions()).toBe(1);
  });
});

/**
 * A sender that always has data, on a link of `kbps` with round trip `rttMs`, paced by `window`
 * as the shaper paces it: one segment on the wire at a time, each acknowledged a round trip after
 * it left. Returns the bytes sent in each round trip of `rounds`; `loseAt` loses the first
 * segment sent at or after that time (its acknowledgement comes a round trip late).
 */
function saturate(window: CongestionWindow, kbps: number, rttMs: number, rounds: number, loseAt = Infinity): number[] {
  const ceiling = bytesIn(rttMs, kbps) + MSS;
  const perRound = new Array<number>(rounds).fill(0);
  const segMs = serialisationMs(MSS, kbps);
  let t = 0;
  let lost = false;
  const end = rounds * rttMs;
  while (t < end) {
    window.ack(t, ceiling);
    if (window.room() < MSS) {
      t = window.nextAckAt ?? t + segMs;
      continue;
    }
    const endsAt = t + segMs;
    let stall = 0;
    if (!lost && t >= loseAt) {
      lost = true;
      stall = rttMs;
      window.lose(t, t + rttMs);
    }
    window.sent(MSS, endsAt + rttMs + stall);
    perRound[Math.floor(t / rttMs)] = (perRound[Math.floor(t / rttMs)] ?? 0) + MSS;
    t = endsAt;
  }
  return perRound;
}

describe('CongestionWindow', () => {
  it('does not limit a sender that has lost nothing: it sends at the link rate', () => {
    const window = new CongestionWindow();
    const rounds = saturate(window, 2_000, 600, 10);
    const linkPerRound = bytesIn(600, 2_000); // 150 kB on VSAT up
    for (const sent of rounds) expect(sent).toBeGreaterThan(linkPerRound - 2 * MSS);
    expect(window.limited).toBe(false);
    expect(window.cuts).toBe(0);
  });

  it('halves the rate after a loss, then grows back one segment per round trip to the link rate', () => {
    // FBB: 400 kbit/s, 700 ms: 35 kB (24 segments) a round trip.
    const kbps = 400;
    const rttMs = 700;
    const window = new CongestionWindow();
    const rounds = saturate(window, kbps, rttMs, 30, 5 * rttMs);
    const full = bytesIn(rttMs, kbps);
    expect(rounds[4]).toBeGreaterThan(full * 0.9);
    expect(window.cuts).toBe(1);
    // The round trip after the loss is noticed carries about half.
    const after = rounds[6] ?? 0;
    expect(after).toBeGreaterThan(full * 0.4);
    expect(after).toBeLessThan(full * 0.65);
    // Then it climbs a segment or so a round trip…
    for (let r = 7; r < 14; r++) {
      const step = (rounds[r] ?? 0) - (rounds[r - 1] ?? 0);
      expect(step).toBeGreaterThanOrEqual(0);
      expect(step).toBeLessThanOrEqual(2 * MSS);
    }
    // …and is back at the link rate, the window no longer limiting, within ~12 round trips.
    expect(rounds[25]).toBeGreaterThan(full * 0.9);
    expect(window.limited).toBe(false);
  });

  it('halves the window when the loss is noticed, once per window, never below two segments', () => {
    const ceiling = 20 * MSS; // what the link carries in a round trip
    const window = new CongestionWindow();
    for (let i = 0; i < 6; i++) window.sent(MSS, 1_000 + i);
    expect(window.lose(0, 600)).toBe(true);
    // Until the sender notices (a round trip on), it goes on at the rate it had.
    window.ack(599, ceiling);
    expect(window.cwnd).toBe(Infinity);
    expect(window.nextAckAt).toBe(600);
    // An unlimited window halves from what the link holds, not from the 6 segments in flight:
    // a sender that was not filling the link keeps what it was allowed.
    window.ack(600, ceiling);
    expect(window.cwnd).toBe(10 * MSS);
    expect(window.limited).toBe(true);
    expect(window.room()).toBe(4 * MSS);
    // A second loss from the same window (sent before the first was noticed) does not cut again…
    expect(window.lose(300, 900)).toBe(false);
    window.ack(900, ceiling);
    expect(window.cwnd).toBe(10 * MSS);
    // …one sent after it does. The first segment's acknowledgement at 1 000 grows the window by
    // MSS/cwnd (a tenth of a segment), then it halves.
    expect(window.lose(700, 1_000)).toBe(true);
    window.ack(1_000, ceiling);
    expect(window.cwnd).toBeCloseTo((10 * MSS + MSS / 10) / 2, 6);
    expect(window.cuts).toBe(2);
    for (const at of [2_000, 3_000, 4_000]) {
      window.lose(at, at + 600);
      window.ack(at + 600, ceiling);
    }
    expect(window.cwnd).toBe(2 * MSS);
  });

  it('acknowledges segments behind a lost one on time (selectively), the lost one after its retransmission', () => {
    const window = new CongestionWindow();
    window.sent(MSS, 1_600); // lost: acknowledged a round trip late
    window.sent(MSS, 1_000);
    window.sent(MSS, 1_010);
    window.ack(1_010, Infinity);
    expect(window.unackedBytes).toBe(MSS);
    expect(window.nextAckAt).toBe(1_600);
    window.ack(1_600, Infinity);
    expect(window.unackedBytes).toBe(0);
  });
});
