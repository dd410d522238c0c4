import { LINK_ACK_INTERVAL_MS } from '@ship-cctv/protocol';

/**
 * How many bytes the agent lets be on their way to shore at once, learned from shore's
 * acknowledgements (`link.ack`, link protocol 3).
 *
 * Why: the operating system's socket buffers, and on a real ship the satellite terminal's, are one
 * first-in-first-out queue. Whatever the agent hands them waits there behind everything handed
 * before, whatever its priority, so a picture written in one go delays live video by the seconds
 * it takes to cross an FBB uplink. Keeping only about what the link can carry in one round trip in
 * flight leaves the queue in the agent's uplink scheduler, where live goes before pictures.
 *
 * The window is `gain × delivery rate × round trip`: the fastest rate shore acknowledged over the
 * last few seconds times the shortest round trip lately seen. When the agent sends less than the
 * link carries, the rate it measures is what it sent, and a gain above 1 lets the window, and with it
 * the rate, grow each round trip until the link is full; then the window stays at `gain` times the
 * link's bandwidth-delay product, so what queues in the network is `gain - 1` round trips at most.
 *
 * A lost packet is the exception: TCP sends it again a round trip later, and shore acknowledges
 * nothing meanwhile, so what is sent during that round trip counts as in flight although it is not
 * queued anywhere (it waits in shore's receive buffer for the hole to fill). With the window alone,
 * live would stand still for most of every such stall and then arrive a further half round trip
 * late: on an FBB link (1 % loss, 700 ms round trip) that put live pictures more than a second
 * behind after every loss. So while shore's acknowledgements stand still as a loss holds them (no
 * progress for the acknowledgement interval and half a round trip after the oldest byte was due),
 * the classes that go before the background (control, talk, live) may have one round trip's worth
 * more in flight. A slower link is not a stall: its acknowledgements still move every interval.
 */
/**
 * Whether shore has acknowledged nothing for as long as a lost packet holds it: the oldest byte not
 * acknowledged was due (a round trip after it left), and nothing moved on for the acknowledgement
 * interval and `share` of the round trip since then or since the last progress (jitter stays well
 * under half a round trip). The send window and the link meter ask the same question.
 */
export function acksHeld(now: number, o: { oldestSentAt: number; rtt: number; lastProgress: number | undefined }, share = 0.5): boolean {
  const silentSince = Math.max(o.oldestSentAt + o.rtt, o.lastProgress ?? -Infinity);
  return now - silentSince >= LINK_ACK_INTERVAL_MS + share * o.rtt;
}

export interface SendWindowOptions {
  /** Window before anything is measured. Default 64 KiB. */
  initialBytes?: number;
  /** The window never shrinks below this. Default 16 KiB. */
  minBytes?: number;
  /** Default 1.5. */
  gain?: number;
  /** Gain for background classes (pictures, playback): what they may queue in the network delays live. Default 1.0. */
  backgroundGain?: number;
  /** Delivery rate: the best over this long. Default 3 s. */
  rateWindowMs?: number;
  /** Round trip: the shortest over this long (a link whose path changed is relearnt). Default 10 s. */
  rttWindowMs?: number;
}

interface Sample {
  at: number;
  value: number;
}

/** Keeps the best (max or min) of samples no older than `spanMs`. */
export class WindowedBest {
  private samples: Sample[] = [];
  constructor(
    private readonly spanMs: number,
    private readonly better: (a: number, b: number) => boolean,
  ) {}
  add(at: number, value: number): void {
    // A sample both older and no better than a newer one can never be the best again.
    while (this.samples.length > 0 && !this.better(this.samples[this.samples.length - 1]?.value ?? 0, value)) this.samples.pop();
    this.samples.push({ at, value });
  }
  best(now: number): number | undefined {
    while (this.samples.length > 1 && (this.samples[0]?.at ?? now) < now - this.spanMs) this.samples.shift();
    return this.samples[0]?.value;
  }
}

/**
 * The rate shore acknowledges bytes at: the acknowledged bytes of the last second over the time they
 * took (at least 100 ms apart), the best of those over `spanMs`.
 */
export class DeliveryRate {
  private readonly recentAcks: { at: number; acked: number }[] = [];
  private readonly rate: WindowedBest;

  constructor(spanMs: number) {
    this.rate = new WindowedBest(spanMs, (a, b) => a > b);
  }

  /** Shore has acknowledged `acked` bytes in all at `now`. */
  onAck(acked: number, now: number): void {
    this.recentAcks.push({ at: now, acked });
    while (this.recentAcks.length > 2 && (this.recentAcks[1]?.at ?? now) <= now - 1_000) this.recentAcks.shift();
    const first = this.recentAcks[0];
    if (first && now - first.at >= 100) this.rate.add(now, ((acked - first.acked) * 1000) / (now - first.at));
  }

  /** Bytes per second; undefined before two acknowledgements 100 ms apart. */
  best(now: number): number | undefined {
    return this.rate.best(now);
  }
}

export class SendWindow {
  /** Bytes handed to the socket since the link opened. */
  private sent = 0;
  /** Bytes shore said it received. */
  private acked = 0;
  /** (bytes sent up to here, when): to time each acknowledgement. */
  private readonly inFlight: { end: number; at: number }[] = [];
  private readonly rate: DeliveryRate;
  private readonly rtt: WindowedBest;
  private readonly initial: number;
  private readonly min: number;
  private readonly gain: number;
  private readonly backgroundGain: number;
  /** When shore's acknowledgements last moved on. */
  private lastProgress: number | undefined;

  constructor(opts: SendWindowOptions = {}) {
    this.initial = opts.initialBytes ?? 64 * 1024;
    this.min = opts.minBytes ?? 16 * 1024;
    this.gain = opts.gain ?? 1.5;
    this.backgroundGain = opts.backgroundGain ?? 1.0;
    this.rate = new DeliveryRate(opts.rateWindowMs ?? 3_000);
    this.rtt = new WindowedBest(opts.rttWindowMs ?? 10_000, (a, b) => a < b);
  }

  /** Bytes sent and not yet acknowledged. */
  get bytesInFlight(): number {
    return this.sent - this.acked;
  }

  onSend(bytes: number, now: number): void {
    this.sent += bytes;
    this.inFlight.push({ end: this.sent, at: now });
  }

  /**
   * Bytes that went on this connection before the window was kept (the hello, pings): shore counts
   * them in its acknowledgements, so they are counted here too — untimed: an acknowledgement of
   * them says nothing of the round trip of what is sent now.
   */
  sentBefore(bytes: number): void {
    this.sent += bytes;
  }

  /** Shore has received `total` bytes on this link (cumulative; older or repeated totals are ignored). */
  onAck(total: number, now: number): void {
    if (total <= this.acked) return;
    this.acked = Math.min(total, this.sent);
    this.lastProgress = now;
    let sentAt: number | undefined;
    while (this.inFlight.length > 0 && (this.inFlight[0]?.end ?? Infinity) <= this.acked) sentAt = this.inFlight.shift()?.at;
    if (sentAt !== undefined) this.rtt.add(now, Math.max(1, now - sentAt));
    this.rate.onAck(this.acked, now);
  }

  /** Bytes allowed in flight now (for a background class: less, so that it queues less before live). */
  limit(now: number, background = false): number {
    const rate = this.rate.best(now);
    const rtt = this.rtt.best(now);
    if (rate === undefined || rtt === undefined) return this.initial;
    const gain = background ? this.backgroundGain : this.gain + (this.stalled(now, rtt) ? 1 : 0);
    return Math.max(this.min, Math.round((gain * rate * rtt) / 1000));
  }

  /** Whether shore's acknowledgements stand still as a lost packet holds them (acksHeld), for the oldest message in flight. */
  private stalled(now: number, rtt: number): boolean {
    const oldest = this.inFlight[0];
    return oldest !== undefined && acksHeld(now, { oldestSentAt: oldest.at, rtt, lastProgress: this.lastProgress });
  }

  /**
   * Whether another message may go now: while fewer bytes than the window are in flight, whatever
   * its size (so the window overshoots by one message at most). Waiting for room for the whole
   * message would starve large messages behind a steady stream of small ones: the window, measured
   * from what was sent, would never grow to fit them.
   */
  allowsMore(now: number, background = false): boolean {
    return this.bytesInFlight < this.limit(now, background);
  }
}
