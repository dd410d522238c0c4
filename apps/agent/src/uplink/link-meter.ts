import { LINK_ACK_INTERVAL_MS, type LinkMeasurement } from '@ship-cctv/protocol';
import { DeliveryRate, WindowedBest } from './send-window.ts';

/** A TCP segment as satellite paths carry it: the unit a loss holds back and loss is counted in. */
export const SEGMENT_BYTES = 1460;

export interface LinkMeterOptions {
  /**
   * A delivery this share of the shortest round trip later than its bytes ahead explain was held
   * back by a retransmission (a lost packet costs at least one round trip; the send window lets at
   * most half a round trip queue in the network). Default 0.75.
   */
  stallShare?: number;
}

/**
 * What the agent measures of the link it has, on one connection to shore, period by period:
 *
 * - round trip: its own WebSocket pings (`roundTrip`), the shortest of the period — the link's
 *   delay without the queues a busy uplink adds;
 * - goodput: the bytes shore acknowledged in the period (`link.ack`, link protocol 3) over its
 *   length — what the uplink carried, its capacity only while it was full;
 * - loss seen: TCP retransmits a lost packet, so no byte is missing, but everything sent after it
 *   reaches shore at least a round trip late. Each message sent is expected acknowledged within
 *   the shortest round trip, plus the time the bytes ahead of it take at the rate shore acknowledges,
 *   plus shore's acknowledgement interval; a run of messages later than that by `stallShare` of a
 *   round trip is one stall — at least one packet lost. `lossPercent` is stalls per 100 segments
 *   acknowledged.
 *
 * Pure: the caller gives every time (performance.now() in the agent).
 */
export class LinkMeter {
  private periodStart: number;
  private readonly roundTrips: number[] = [];
  /** Bytes handed to the socket, and acknowledged by shore, since the connection opened. */
  private sent = 0;
  private acked = 0;
  private ackedAtPeriodStart = 0;
  private acksSeen = false;
  /** Messages not yet acknowledged: where they end in the byte stream, when they left, bytes in flight with them. */
  private readonly inFlight: { end: number; at: number; ahead: number }[] = [];
  private readonly rate = new DeliveryRate(3_000);
  private readonly shortest = new WindowedBest(10_000, (a, b) => a < b);
  private stalls = 0;
  /** The last delivery was late: later late ones belong to the same stall. */
  private stalled = false;
  private readonly stallShare: number;

  constructor(now: number, opts: LinkMeterOptions = {}) {
    this.periodStart = now;
    this.stallShare = opts.stallShare ?? 0.75;
  }

  /** `bytes` left for shore (as on the wire: what shore counts). */
  onSend(bytes: number, now: number): void {
    this.sent += bytes;
    this.inFlight.push({ end: this.sent, at: now, ahead: this.sent - this.acked });
  }

  /** A ping's answer came back `ms` after the ping left. */
  roundTrip(ms: number, now: number): void {
    this.roundTrips.push(ms);
    this.shortest.add(now, ms);
  }

  /** Shore has received `total` bytes on this connection (`link.ack`; older or repeated totals are ignored). */
  onAck(total: number, now: number): void {
    this.acksSeen = true;
    if (total <= this.acked) return;
    this.acked = Math.min(total, this.sent);
    this.rate.onAck(this.acked, now);
    const rate = this.rate.best(now);
    const rtt = this.shortest.best(now);
    while (this.inFlight.length > 0 && (this.inFlight[0]?.end ?? Infinity) <= this.acked) {
      const m = this.inFlight.shift();
      if (!m || rate === undefined || rtt === undefined || rate <= 0) continue;
      const expected = m.at + rtt + (m.ahead * 1000) / rate + LINK_ACK_INTERVAL_MS;
      if (now - expected >= this.stallShare * rtt) {
        if (!this.stalled) this.stalls++;
        this.stalled = true;
      } else this.stalled = false;
    }
  }

  /** The figures of the period up to `now`; a new period starts. */
  report(now: number): LinkMeasurement {
    const periodMs = Math.max(0, Math.round(now - this.periodStart));
    const ackedBytes = this.acked - this.ackedAtPeriodStart;
    const segments = ackedBytes / SEGMENT_BYTES;
    const m: LinkMeasurement = {
      periodMs,
      ...(this.roundTrips.length > 0 ? { rttMs: Math.round(Math.min(...this.roundTrips)) } : {}),
      ...(this.acksSeen && periodMs > 0 ? { goodputKbps: Math.round((ackedBytes * 80) / periodMs) / 10 } : {}),
      ...(this.acksSeen ? { stalls: this.stalls } : {}),
      ...(this.acksSeen && segments >= 1 ? { lossPercent: Math.round((this.stalls / segments) * 100 * 100) / 100 } : {}),
    };
    this.periodStart = now;
    this.roundTrips.length = 0;
    this.ackedAtPeriodStart = this.acked;
    this.stalls = 0;
    return m;
  }
}
