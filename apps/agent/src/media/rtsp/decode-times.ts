/**
 * Decode times for a camera's pictures, which RTP stamps with their presentation times only
 * (RFC 6184 5.1). Without B-frames the two are the same. With B-frames the pictures arrive in
 * decode order, out of presentation order, and each needs a decode time that only ever increases
 * and is never after its presentation time.
 *
 * With a reorder depth D (ITU-T H.264 E.2.1 max_num_reorder_frames: no picture is preceded in
 * decode order by more than D pictures that follow it in presentation order), the n-th picture in
 * decode order takes as decode time the (n − D)-th presentation time in presentation order. That
 * one is known the moment picture n arrives (every picture up to it in presentation order has come
 * by then), so no picture waits: this is the smallest presentation time not yet used, among those
 * that have come. The first D pictures are stamped a frame apart before the first presentation
 * time. Decode times are D frames before presentation times on average; a picture's composition
 * offset (presentation − decode) is what its decoder needs to reorder.
 *
 * The depth comes from the SPS's VUI when the camera writes it. Otherwise it is learnt: it starts
 * at 0 (a camera without B-frames needs nothing), and a picture that would have to be decoded
 * before the last decode time (it comes later in decode order than D allows) raises it by one and
 * starts the decode times again from that picture (`jumped`). A camera's clock stepping back
 * further than any reorder could (more than 17 frames, the frame measured as the smallest step
 * between presentation times), or ahead by as much, starts them again the same way, without
 * raising the depth. The reader passes on only the times: a start again steps the decode times
 * back, which the camera session takes as a discontinuity by itself (a new recorder segment); a
 * step ahead is one there only when longer than the session's MAX_GAP_MS.
 */

/** The most reordering H.264 allows (a DPB of 16 frames). */
export const MAX_REORDER_DEPTH = 16;

export interface DecodeTimesOptions {
  /** The SPS's max_num_reorder_frames, or the depth to start learning from. */
  reorderDepth: number;
  /** The SPS does not say: the depth rises when a picture shows it deeper. */
  learn: boolean;
  /** One frame in clock ticks: the spacing of the decode times before the first presentation time. */
  frameTicks: number;
}

export interface DecodeTime {
  /** Decode time in the clock's ticks (RTP units). */
  dts: number;
  /** The decode times start again here (a deeper reorder than assumed, or the camera's clock went back). */
  jumped: boolean;
}

export class DecodeTimes {
  private depth: number;
  private readonly learning: boolean;
  /** Presentation times that have come and are not used as decode times yet, ascending. */
  private readonly pending: number[] = [];
  private lastDts: number | undefined;
  private readonly frameTicks: number;
  /** The smallest step seen between two presentation times: the frame duration, measured. */
  private spacing: number | undefined;
  /** The last presentation times, for `spacing`. */
  private readonly recent: number[] = [];

  constructor(opts: DecodeTimesOptions) {
    this.learning = opts.learn;
    this.depth = Math.min(MAX_REORDER_DEPTH, Math.max(0, opts.reorderDepth));
    this.frameTicks = Math.max(1, opts.frameTicks);
  }

  /** The reorder depth in use (pictures). */
  get reorderDepth(): number {
    return this.depth;
  }

  /** The depth learnt from the pictures; undefined when the SPS gave it. */
  get learnt(): number | undefined {
    return this.learning ? this.depth : undefined;
  }

  /** The next picture in decode order, given its presentation time (ticks); returns its decode time. */
  next(pts: number): DecodeTime {
    const newest = this.recent.length > 0 ? Math.max(...this.recent) : undefined;
    this.measureSpacing(pts);
    const reach = (MAX_REORDER_DEPTH + 1) * (this.spacing ?? this.frameTicks);
    const last = this.lastDts;
    const back = last !== undefined && pts <= last;
    // The camera's clock jumped ahead: the pictures still pending belong to the time before.
    const ahead = newest !== undefined && pts - newest > reach;
    if (back || ahead) {
      // A deeper reorder than assumed (a small step back), or the camera's clock jumped.
      if (back && last - pts <= reach && this.learning) this.depth = Math.min(MAX_REORDER_DEPTH, this.depth + 1);
      this.pending.length = 0;
      this.lastDts = undefined;
      const dts = this.take(pts);
      return { dts, jumped: true };
    }
    return { dts: this.take(pts), jumped: false };
  }

  private measureSpacing(pts: number): void {
    for (const t of this.recent) {
      const step = Math.abs(t - pts);
      if (step > 0 && (this.spacing === undefined || step < this.spacing)) this.spacing = step;
    }
    this.recent.push(pts);
    if (this.recent.length > MAX_REORDER_DEPTH + 1) this.recent.shift();
  }

  private take(pts: number): number {
    insertSorted(this.pending, pts);
    let dts: number;
    if (this.pending.length > this.depth) {
      dts = this.pending.shift() as number;
    } else {
      // Still filling: a frame apart before the smallest presentation time so far.
      dts = (this.pending[0] as number) - (this.depth + 1 - this.pending.length) * this.frameTicks;
    }
    // Never backwards (a picture dropped on the way, a filling run whose smallest time fell).
    if (this.lastDts !== undefined && dts <= this.lastDts) dts = Math.min(pts, this.lastDts + 1);
    this.lastDts = dts;
    return dts;
  }
}

function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && (list[i - 1] as number) > value) i--;
  list.splice(i, 0, value);
}
