import { LINK_ACK_INTERVAL_MS, type LinkMeasurement } from '@ship-cctv/protocol';
import { WindowedBest, acksHeld } from './send-window.ts';

/** A TCP segment as satellite paths carry it: the unit a loss holds back and loss is counted in. */
export const SEGMENT_BYTES = 1460;

export interface LinkMeterOptions {
  /**
   * Shore acknowledging nothing new for its acknowledgement interval and this share of the
   * shortest round trip while bytes were due is a stall (a lost packet holds everything behind it
   * back a round trip; jitter stays well under half of one). Default 0.5.
   */
  stallShare?: number;
}

/**
 * What the agent measures of the link it has, on one connection to shore, period by period:
 *
 * - round trip: its own WebSocket pings (`roundTrip`), the shortest of the period — the link's
 *   delay without the queues a busy uplink adds;
 * - goodput: the bytes shore acknowledged in the period (`link.ack`, link protocol 3) over its
 *   length — what the uplink carried, its capacity only while it was full. The count starts at the
 *   last acknowledgement before the period when bytes were still arriving then, and the time with
 *   it: an acknowledgement that reaches the agent just after a period's start (late, on a busy
 *   machine) is not counted as the next period's bytes in the period's time, which read up to one
 *   acknowledgement interval's bytes above what the link can carry;
 * - loss seen: TCP retransmits a lost packet, so no byte is missing, but everything behind it
 *   reaches shore a round trip late, all at once when the retransmission arrives; shore, which
 *   acknowledges whatever arrives every LINK_ACK_INTERVAL_MS (mid-message too), acknowledges nothing
 *   new meanwhile. A stall is such a silence — longer than the acknowledgement interval and
 *   `stallShare` of the shortest round trip, counted from when the first unacknowledged byte was
 *   due (a round trip after it left) or from the last progress, whichever is later — that ends in a
 *   release: more acknowledged at once than twice the usual step of a busy link (the median of the
 *   last steps), or anything at all after an idle one. A slower link still shows progress every
 *   interval; a sender waiting for its TCP window (after a loss) falls silent too but resumes at
 *   the usual step; a link with nothing to carry has nothing due. `lossPercent` is stalls per 100
 *   segments acknowledged. A retransmission that costs less than the interval (a low-orbit link's
 *   50 ms) is not seen.
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
  /** Where the period's goodput counts from: an acknowledgement's total and when it came. */
  private goodputFrom: { at: number; acked: number };
  private acksSeen = false;
  /** Messages not yet wholly acknowledged: where they end in the byte stream, and when they left. */
  private readonly inFlight: { end: number; at: number }[] = [];
  private readonly shortest = new WindowedBest(10_000, (a, b) => a < b);
  /** When shore's acknowledgements last moved on, and by how much the last few times. */
  private lastProgress: number | undefined;
  private readonly steps: number[] = [];
  private stalls = 0;
  private readonly stallShare: number;

  constructor(now: number, opts: LinkMeterOptions = {}) {
    this.periodStart = now;
    this.goodputFrom = { at: now, acked: 0 };
    this.stallShare = opts.stallShare ?? 0.5;
  }

  /** `bytes` left for shore (as on the wire: what shore counts). */
  onSend(bytes: number, now: number): void {
    this.sent += bytes;
    this.inFlight.push({ end: this.sent, at: now });
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
    const acked = Math.min(total, this.sent);
    const step = acked - this.acked;
    // The first byte not acknowledged until now: in the message at the head of the line.
    const head = this.inFlight[0];
    const rtt = this.shortest.best(now);
    if (head && rtt !== undefined && this.lastProgress !== undefined) {
      const idleBefore = head.at > this.lastProgress;
      const usual = [...this.steps].sort((x, y) => x - y)[Math.floor(this.steps.length / 2)] ?? 0;
      const held = acksHeld(now, { oldestSentAt: head.at, rtt, lastProgress: this.lastProgress }, this.stallShare);
      if (held && (idleBefore || step > 2 * usual)) this.stalls++;
    }
    this.lastProgress = now;
    this.steps.push(step);
    if (this.steps.length > 5) this.steps.shift();
    this.acked = acked;
    while (this.inFlight.length > 0 && (this.inFlight[0]?.end ?? Infinity) <= this.acked) this.inFlight.shift();
  }

  /** The figures of the period up to `now`; a new period starts. */
  report(now: number): LinkMeasurement {
    const periodMs = Math.max(0, Math.round(now - this.periodStart));
    const ackedBytes = this.acked - this.ackedAtPeriodStart;
    const segments = ackedBytes / SEGMENT_BYTES;
    const goodputMs = now - this.goodputFrom.at;
    const goodputBytes = this.acked - this.goodputFrom.acked;
    const m: LinkMeasurement = {
      periodMs,
      ...(this.roundTrips.length > 0 ? { rttMs: Math.round(Math.min(...this.roundTrips)) } : {}),
      ...(this.acksSeen && goodputMs > 0 ? { goodputKbps: Math.round((goodputBytes * 80) / goodputMs) / 10 } : {}),
      ...(this.acksSeen ? { stalls: this.stalls } : {}),
      ...(this.acksSeen && segments >= 1 ? { lossPercent: Math.round((this.stalls / segments) * 100 * 100) / 100 } : {}),
    };
    this.periodStart = now;
    this.roundTrips.length = 0;
    this.ackedAtPeriodStart = this.acked;
    // Bytes still arriving (an acknowledgement within the last two intervals): the next count
    // starts at that acknowledgement; an idle link's starts now.
    const busy = this.lastProgress !== undefined && now - this.lastProgress <= 2 * LINK_ACK_INTERVAL_MS;
    this.goodputFrom = { at: busy ? (this.lastProgress as number) : now, acked: this.acked };
    this.stalls = 0;
    return m;
  }
}
