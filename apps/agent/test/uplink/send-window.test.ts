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
});
