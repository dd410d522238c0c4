/**
 * A token bucket: holds at most `capacity` tokens, gains `perSecond` a second; each thing counted
 * takes one. A burst up to the capacity passes at once, a steady stream only at the rate.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = capacity;
    this.at = now();
  }

  /** Takes a token; false when the bucket is empty (the thing is over the rate). */
  take(): boolean {
    return this.takeOrWait() === 0;
  }

  /** Takes a token and answers 0, or answers the ms until the bucket has one (taking nothing). */
  takeOrWait(): number {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
    this.tokens -= 1;
    return 0;
  }

  /** When the bucket was last asked (on its clock). */
  get lastUsed(): number {
    return this.at;
  }
}
