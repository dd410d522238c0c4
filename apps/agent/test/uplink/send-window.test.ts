import { describe, expect, it } from 'vitest';
import { SendWindow } from '../../src/uplink/send-window.ts';

/** Bytes sent so far through each window (shore acknowledges totals). */
const totals = new WeakMap<SendWindow, number>();

/** Sends `bytesPerTick` every 100 ms for `ticks`, shore acknowledging each send `rttMs` later; returns the clock. */
function steady(w: SendWindow, bytesPerTick: number, ticks: number, rttMs: number, from = 0): number {
  const acks: { at: number; total: number }[] = [];
  let sent = totals.get(w) ?? 0;
  let now = from;
  for (let i = 0; i < ticks; i++, now += 100) {
    while (acks.length > 0 && (acks[0]?.at ?? Infinity) <= now) {
      const a = acks.shift();
      if (a) w.onAck(a.total, a.at);
    }
    w.onSend(bytesPerTick, now);
    sent += bytesPerTick;
    acks.push({ at: now + rttMs, total: sent });
  }
  for (const a of acks) w.onAck(a.total, a.at);
  totals.set(w, sent);
  return now;
}

describe('the send window', () => {
  it('starts at its initial size and counts what is unacknowledged', () => {
    const w = new SendWindow({ initialBytes: 1000 });
    expect(w.limit(0)).toBe(1000);
    w.onSend(600, 0);
    w.onSend(300, 1);
    expect(w.bytesInFlight).toBe(900);
    expect(w.allowsMore(2)).toBe(true);
    w.onSend(200, 2);
    expect(w.allowsMore(3)).toBe(false); // 1100 ≥ 1000: the next waits
    w.onAck(600, 700);
    expect(w.bytesInFlight).toBe(500);
  });

  it('ignores old, repeated and impossible acknowledgements', () => {
    const w = new SendWindow();
    w.onSend(1000, 0);
    w.onAck(800, 500);
    w.onAck(400, 600);
    w.onAck(800, 650);
    expect(w.bytesInFlight).toBe(200);
    w.onAck(5000, 700); // more than was ever sent
    expect(w.bytesInFlight).toBe(0);
  });

  it('settles at gain × rate × round trip, and at 1× for background classes', () => {
    const w = new SendWindow({ gain: 1.5, backgroundGain: 1, minBytes: 1000 });
    // 5 kB every 100 ms = 50 kB/s, acknowledged 800 ms later.
    const now = steady(w, 5_000, 40, 800);
    expect(w.limit(now)).toBeGreaterThan(1.5 * 50 * 800 * 0.9);
    expect(w.limit(now)).toBeLessThan(1.5 * 50 * 800 * 1.1);
    expect(w.limit(now, true)).toBeGreaterThan(50 * 800 * 0.9);
    expect(w.limit(now, true)).toBeLessThan(50 * 800 * 1.1);
  });

  it('never goes below its minimum, and lets one message go when nothing is in flight', () => {
    const w = new SendWindow({ minBytes: 4_000 });
    const now = steady(w, 10, 30, 500); // a trickle: 100 B/s
    expect(w.limit(now)).toBe(4_000);
    expect(w.bytesInFlight).toBe(0);
    expect(w.allowsMore(now)).toBe(true);
  });

  it('forgets a faster past: the rate is the best of the last few seconds only', () => {
    const w = new SendWindow({ gain: 1, minBytes: 100, rateWindowMs: 2_000 });
    let now = steady(w, 10_000, 30, 400); // 100 kB/s
    const fast = w.limit(now);
    now = steady(w, 1_000, 60, 400, now + 100); // then 10 kB/s for 6 s
    expect(w.limit(now)).toBeLessThan(fast / 5);
  });

  it('lets live have a round trip more in flight while a lost packet holds the acknowledgements, never the background', () => {
    const w = new SendWindow({ gain: 1.5, backgroundGain: 1, minBytes: 1000 });
    // 2 kB every 100 ms = 20 kB/s over a 700 ms round trip: settled at 1.5 × 14 kB.
    // (steady's last acknowledgement comes a round trip after its last send)
    let now = steady(w, 2_000, 50, 700) + 700;
    const settled = w.limit(now);
    const background = w.limit(now, true);
    expect(settled).toBeGreaterThan(1.5 * 20 * 700 * 0.9);
    // A packet is lost: live goes on being sent, shore acknowledges nothing for a round trip more.
    let sent = totals.get(w) ?? 0;
    const stallFrom = now;
    const during: number[] = [];
    for (; now < stallFrom + 1_400; now += 100) {
      w.onSend(2_000, now);
      sent += 2_000;
      during.push(w.limit(now));
    }
    // Until the oldest byte is due and the silence has lasted an interval and half a round trip, nothing changes…
    expect(during[0]).toBe(settled);
    // …then live may have one round trip more (≈ 2.5 × 14 kB), the background still its own.
    expect(w.limit(now)).toBeGreaterThan(2.5 * 20 * 700 * 0.9);
    expect(w.limit(now, true)).toBe(background);
    // 28 kB in flight now: past the settled window, within the stalled one.
    expect(w.bytesInFlight).toBeGreaterThan(settled);
    expect(w.allowsMore(now)).toBe(true);
    expect(w.allowsMore(now, true)).toBe(false);
    // The retransmission arrives: everything is acknowledged at once and the window is the settled one again.
    w.onAck(sent, now);
    expect(w.limit(now + 1)).toBeLessThan(1.5 * 20 * 700 * 1.6);
    expect(w.limit(now + 1)).toBeLessThanOrEqual(settled * 1.6);
  });

  it('does not take a slower link for a stall: its acknowledgements still move', () => {
    const w = new SendWindow({ gain: 1.5, backgroundGain: 1, minBytes: 1000 });
    let now = steady(w, 2_000, 50, 700) + 700;
    const settled = w.limit(now);
    // The link now carries half of what is sent (1 kB per 100 ms): what was sent a round trip ago
    // is acknowledged at that pace, every interval, with a queue growing behind.
    let sent = totals.get(w) ?? 0;
    let acked = sent;
    const sends: { at: number; total: number }[] = [];
    for (let i = 0; i < 30; i++, now += 100) {
      w.onSend(2_000, now);
      sent += 2_000;
      sends.push({ at: now, total: sent });
      const reachable = sends.filter((x) => x.at <= now - 700).at(-1)?.total ?? acked;
      acked = Math.max(acked, Math.min(acked + 1_000, reachable));
      w.onAck(acked, now);
      expect(w.limit(now)).toBeLessThanOrEqual(settled * 1.05);
    }
    expect(w.bytesInFlight).toBeGreaterThan(settled);
  });
});
