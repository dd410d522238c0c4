import { describe, expect, it } from 'vitest';
import { LINK_ACK_INTERVAL_MS } from '@ship-cctv/protocol';
import { LinkMeter, SEGMENT_BYTES } from '../../src/uplink/link-meter.ts';

/**
 * A link on paper, no clock: messages leave at given times and cross one first-in-first-out queue
 * at `rateBytesPerMs` (segment by segment, 1000 bytes) and a one-way delay; shore acknowledges
 * what arrived (mid-message too) every LINK_ACK_INTERVAL_MS, and the acknowledgement takes the
 * one-way delay back. A lost message arrives a round trip late, and everything behind it waits
 * for it (TCP's head-of-line blocking).
 */
function runLink(o: {
  oneWayMs: number;
  rateBytesPerMs: number;
  sends: { at: number; bytes: number }[];
  lost?: ReadonlySet<number>;
  /** The sender stops for `forMs` at the end of every `everyMs` (a TCP sender waiting for its window). */
  waits?: { everyMs: number; forMs: number };
  until: number;
}) {
  const meter = new LinkMeter(0);
  // Shore's ping answers: the link's own round trip at the start.
  meter.roundTrip(2 * o.oneWayMs, 0);
  let free = 0;
  let latest = 0;
  let total = 0;
  const arrivals: { at: number; total: number }[] = [];
  for (const [i, s] of o.sends.entries()) {
    for (let left = s.bytes, first = true; left > 0; left -= 1000, first = false) {
      const segment = Math.min(1000, left);
      let start = Math.max(free, s.at);
      const w = o.waits;
      if (w && start % w.everyMs >= w.everyMs - w.forMs) start = (Math.floor(start / w.everyMs) + 1) * w.everyMs;
      free = start + segment / o.rateBytesPerMs;
      let arrives = free + o.oneWayMs;
      if (first && o.lost?.has(i)) arrives += 2 * o.oneWayMs;
      latest = Math.max(latest, arrives);
      total += segment;
      arrivals.push({ at: latest, total });
    }
  }
  // Events in time order: sends, and acknowledgements (each tick's arrivals, a one-way delay later).
  const events: { at: number; send?: number; ack?: number }[] = o.sends.map((s) => ({ at: s.at, send: s.bytes }));
  let acked = 0;
  for (let tick = LINK_ACK_INTERVAL_MS; tick <= o.until; tick += LINK_ACK_INTERVAL_MS) {
    const arrived = arrivals.filter((a) => a.at <= tick).at(-1)?.total ?? 0;
    // Shore acknowledges only when something new arrived.
    if (arrived > acked) events.push({ at: tick + o.oneWayMs, ack: arrived });
    acked = arrived;
  }
  // Sends before acknowledgements of the same moment, each in its own order (the sort is stable).
  const rank = (e: { send?: number }) => (e.send !== undefined ? 0 : 1);
  events.sort((a, b) => a.at - b.at || rank(a) - rank(b));
  for (const e of events) {
    if (e.at > o.until) break;
    if (e.send !== undefined) meter.onSend(e.send, e.at);
    if (e.ack !== undefined) meter.onAck(e.ack, e.at);
  }
  return meter.report(o.until);
}

/** 1000-byte messages every 25 ms (40 kB/s, 320 kbit/s) for `seconds`. */
const steady = (seconds: number) => Array.from({ length: seconds * 40 }, (_, i) => ({ at: i * 25, bytes: 1000 }));

describe('the link meter', () => {
  it('reports the shortest round trip of the period, and starts a new period at each report', () => {
    const meter = new LinkMeter(0);
    meter.roundTrip(712, 1_000);
    meter.roundTrip(640.4, 2_000);
    meter.roundTrip(905, 3_000);
    expect(meter.report(10_000)).toMatchObject({ periodMs: 10_000, rttMs: 640 });
    // Nothing since: no round trip, and no acknowledgements ever (a version 2 shore) — no goodput or loss either.
    expect(meter.report(15_000)).toEqual({ periodMs: 5_000 });
  });

  it('counts the bytes shore acknowledged over the period as goodput', () => {
    // 320 kbit/s sent over a 400 kbit/s link with a 600 ms round trip, 20 s.
    const m = runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends: steady(20), until: 20_000 });
    // All but the last ~0.7 s arrived and were acknowledged.
    expect(m.goodputKbps).toBeGreaterThan(300);
    expect(m.goodputKbps).toBeLessThanOrEqual(320);
    expect(m.stalls).toBe(0);
    expect(m.lossPercent).toBe(0);
  });

  it('does not count an acknowledgement that came late, just after a period began, as the new period’s bytes', () => {
    // A full 400 kbit/s link (50 bytes a millisecond) acknowledged every interval; the agent reports
    // every 6 s, and the acknowledgement due at the 6 s report's moment comes 30 ms after it (a busy
    // machine), the others in time.
    const meter = new LinkMeter(0);
    const step = 50 * LINK_ACK_INTERVAL_MS;
    const reports = [];
    let total = 0;
    for (let at = LINK_ACK_INTERVAL_MS; at <= 18_000; at += LINK_ACK_INTERVAL_MS) {
      meter.onSend(step, at - LINK_ACK_INTERVAL_MS);
      total += step;
      if (at === 6_000) {
        reports.push(meter.report(at));
        meter.onAck(total, at + 30);
      } else {
        meter.onAck(total, at);
        if (at % 6_000 === 0) reports.push(meter.report(at));
      }
    }
    // Each period carried 400 kbit/s: never more is read, and at most one interval's bytes less.
    expect(reports).toHaveLength(3);
    for (const m of reports.slice(1)) {
      expect(m.goodputKbps).toBeLessThanOrEqual(400);
      expect(m.goodputKbps).toBeGreaterThanOrEqual(400 * (1 - LINK_ACK_INTERVAL_MS / 6_000));
    }
  });

  it('sees each lost packet as a stall (a round trip of silence, then a release), losses close together as one', () => {
    const lost = new Set([200, 500, 501]);
    const m = runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends: steady(20), lost, until: 20_000 });
    expect(m.stalls).toBe(2);
    // Two stalls in ~5,300 segments acknowledged.
    const segments = ((m.goodputKbps ?? 0) * 20_000) / 8 / SEGMENT_BYTES;
    expect(m.lossPercent).toBeCloseTo((2 / segments) * 100, 2);
  });

  it('sees a lost message on a link that was idle before it', () => {
    // A 300-byte report every 5 s; the third is lost.
    const sends = Array.from({ length: 4 }, (_, i) => ({ at: 1_000 + i * 5_000, bytes: 300 }));
    expect(runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends, until: 20_000 }).stalls).toBe(0);
    expect(runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends, lost: new Set([2]), until: 20_000 }).stalls).toBe(1);
  });

  it('takes a slower link for a slower link, not a loss', () => {
    // 320 kbit/s offered to a 160 kbit/s link: a queue that grows for 20 s, acknowledged bit by bit.
    const m = runLink({ oneWayMs: 300, rateBytesPerMs: 20, sends: steady(20), until: 20_000 });
    expect(m.goodputKbps).toBeGreaterThan(150);
    expect(m.goodputKbps).toBeLessThanOrEqual(160);
    expect(m.stalls).toBe(0);
  });

  it('takes a sender waiting for its window (half a round trip of every one) for a slower link, not a loss', () => {
    const m = runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends: steady(20), waits: { everyMs: 600, forMs: 300 }, until: 20_000 });
    expect(m.goodputKbps).toBeGreaterThan(150);
    expect(m.stalls).toBe(0);
    // The same with a lost packet: that one shows.
    expect(runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends: steady(20), waits: { everyMs: 600, forMs: 300 }, lost: new Set([300]), until: 20_000 }).stalls).toBe(1);
  });

  it('takes a late delivery its bytes ahead explain for a queue, not a loss', () => {
    // The steady stream, then a 100 kB picture in one go: its last byte needs 2 s of the link.
    const sends = [...steady(10), { at: 10_000, bytes: 100_000 }, ...steady(10).map((s) => ({ ...s, at: s.at + 10_000 }))];
    const m = runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends, until: 20_000 });
    expect(m.stalls).toBe(0);
    // … while a lost packet in the same stream still shows.
    const lossy = runLink({ oneWayMs: 300, rateBytesPerMs: 50, sends, lost: new Set([600]), until: 20_000 });
    expect(lossy.stalls).toBe(1);
  });
});
