import type { RandomSource } from './random.ts';

/**
 * The TCP segment the loss model counts in (Ethernet MSS). A loss takes out one such segment of a
 * direction's byte stream.
 */
export const LOSS_SEGMENT_BYTES = 1460;

/** Segments lost in a row before the model stops drawing (a retransmission lost again and again). */
const MAX_RETRANSMISSIONS = 6;

/**
 * Where one direction of the link loses segments. The byte stream carried in that direction is cut
 * into `LOSS_SEGMENT_BYTES` segments and each is lost with probability `rate`, independently. The
 * draw is the gap to the next lost segment (geometric), so which bytes are lost depends only on the
 * byte offset and the seed — not on how the senders' writes happened to be chunked — and a test
 * with a seeded source sees the same losses every run.
 */
export class LossDraw {
  readonly #random: RandomSource;
  #rate = 0;
  /** Bytes carried so far in this direction. */
  #offset = 0;
  /** Byte offset at which the next lost segment starts; Infinity while the rate is 0. */
  #nextLoss = Infinity;

  constructor(random: RandomSource, rate = 0) {
    this.#random = random;
    this.setRate(rate);
  }

  get rate(): number {
    return this.#rate;
  }

  /** Bytes carried so far. */
  get offset(): number {
    return this.#offset;
  }

  /** Changes the loss rate (0–1); the next loss is drawn afresh from here (losses are memoryless). */
  setRate(rate: number): void {
    const r = Number.isFinite(rate) ? Math.min(1, Math.max(0, rate)) : 0;
    if (r === this.#rate) return;
    this.#rate = r;
    const segment = Math.ceil(this.#offset / LOSS_SEGMENT_BYTES);
    this.#nextLoss = r > 0 ? (segment + this.#gap()) * LOSS_SEGMENT_BYTES : Infinity;
  }

  /** Bytes that can be carried before the next lost segment begins (0: the next byte starts it). */
  bytesBeforeLoss(): number {
    return Math.max(0, this.#nextLoss - this.#offset);
  }

  /**
   * `bytes` are carried from the current offset on; returns how many lost segments begin among
   * them (0 for a clean chunk).
   */
  carry(bytes: number): number {
    const end = this.#offset + Math.max(0, bytes);
    let lost = 0;
    while (this.#nextLoss < end) {
      lost++;
      this.#nextLoss += (1 + this.#gap()) * LOSS_SEGMENT_BYTES;
    }
    this.#offset = end;
    return lost;
  }

  /**
   * How many times a lost segment has to be sent again before it gets through: at least once, and
   * each retransmission is lost with the same probability.
   */
  retransmissions(): number {
    let n = 1;
    while (n < MAX_RETRANSMISSIONS && this.#random() < this.#rate) n++;
    return n;
  }

  /** Segments that get through before the next lost one. */
  #gap(): number {
    if (this.#rate >= 1) return 0;
    // 1 - u is in (0, 1]: the logarithm is finite and the gap is ≥ 0.
    return Math.floor(Math.log(1 - this.#random()) / Math.log(1 - this.#rate));
  }
}

interface Unacked {
  readonly bytes: number;
  readonly ackAt: number;
}

/**
 * The congestion window of one sender across the link, as TCP keeps it: unlimited (the link's rate
 * is the limit) until a loss; a loss, once the sender notices it a round trip later, halves it
 * (an unlimited window counts as what the link carries in a round trip; never below two
 * segments), once per window of data (losses of data sent before the last loss was noticed do not
 * cut again); then it grows by one segment per window acknowledged (congestion avoidance: one
 * segment per round trip while the sender fills it) until it no longer limits the sender, i.e. it
 * holds what the link carries in a round trip. Halving the window rather than the flight is what
 * Linux's Reno does (cwnd/2): a sender that was not using its whole window keeps what it was
 * allowed rather than what it happened to send.
 *
 * Bytes count as in flight from the moment they start onto the wire until their acknowledgement
 * is back (about one round trip later); `ack(t)` retires what is acknowledged by `t`.
 */
export class CongestionWindow {
  #cwnd = Infinity;
  readonly #unacked: Unacked[] = [];
  #unackedBytes = 0;
  /** Losses of data sent before this moment belong to the last cut's window. */
  #recoverUntil = -Infinity;
  /** When the sender notices the last loss and halves the window (Infinity: no cut pending). */
  #cutAt = Infinity;
  #cuts = 0;

  /** Bytes the sender may have in flight; Infinity when the window does not limit it. */
  get cwnd(): number {
    return this.#cwnd;
  }

  get unackedBytes(): number {
    return this.#unackedBytes;
  }

  /** Times the window was halved. */
  get cuts(): number {
    return this.#cuts;
  }

  /** True while the window is smaller than what the link could carry. */
  get limited(): boolean {
    return this.#cwnd !== Infinity;
  }

  /**
   * Retires what is acknowledged by `t`; each acknowledged byte grows a limited window by
   * MSS/cwnd (one segment per window). `ceiling`: the window at which it stops limiting (the
   * link's bytes per round trip).
   */
  ack(t: number, ceiling: number): void {
    while (this.#unacked.length > 0) {
      const head = this.#unacked[0];
      if (!head || head.ackAt > t) break;
      if (head.ackAt > this.#cutAt) this.#cut(ceiling);
      this.#unacked.shift();
      this.#unackedBytes -= head.bytes;
      if (this.#cwnd !== Infinity) {
        this.#cwnd += (LOSS_SEGMENT_BYTES * head.bytes) / this.#cwnd;
        if (this.#cwnd >= ceiling) this.#cwnd = Infinity;
      }
    }
    if (this.#cutAt <= t) this.#cut(ceiling);
  }

  /** Bytes the sender may put on the wire now (after `ack`): Infinity when unlimited, ≥ 0. */
  room(): number {
    if (this.#cwnd === Infinity) return Infinity;
    // An empty pipe always lets one segment go, as TCP does.
    if (this.#unackedBytes === 0) return Math.max(this.#cwnd, LOSS_SEGMENT_BYTES);
    return Math.max(0, this.#cwnd - this.#unackedBytes);
  }

  /** When the window changes next (an acknowledgement or a pending cut), or undefined. */
  get nextAckAt(): number | undefined {
    const ack = this.#unacked[0]?.ackAt;
    if (this.#cutAt === Infinity) return ack;
    return ack === undefined ? this.#cutAt : Math.min(ack, this.#cutAt);
  }

  /** `bytes` went onto the wire; their acknowledgement is back at `ackAt`. */
  sent(bytes: number, ackAt: number): void {
    // Kept in acknowledgement order. Segments behind a lost one are acknowledged selectively
    // (SACK) and leave the window on time; only the lost one waits for its retransmission.
    let i = this.#unacked.length;
    while (i > 0 && (this.#unacked[i - 1]?.ackAt ?? -Infinity) > ackAt) i--;
    this.#unacked.splice(i, 0, { bytes, ackAt });
    this.#unackedBytes += bytes;
  }

  /**
   * A segment sent at `sentAt` was lost; the sender notices at `noticedAt` (about a round trip
   * later, from the duplicate acknowledgements) and then halves the window — unless this segment
   * went out in the window already cut (sent before the last loss was noticed). Returns true when
   * it will cut.
   */
  lose(sentAt: number, noticedAt: number): boolean {
    if (sentAt < this.#recoverUntil) return false;
    this.#recoverUntil = noticedAt;
    this.#cutAt = noticedAt;
    this.#cuts++;
    return true;
  }

  /** Halves the window; an unlimited one counts as what the link holds (`ceiling`). */
  #cut(ceiling: number): void {
    this.#cutAt = Infinity;
    this.#cwnd = Math.max(2 * LOSS_SEGMENT_BYTES, Math.min(this.#cwnd, ceiling) / 2);
  }
}
