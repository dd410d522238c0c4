/**
 * The one item a store-and-forward outbox (pictures, events) has offered shore and is sending: its
 * id, and a timer that gives it up when shore does not answer in time — it is then offered again,
 * and shore says where to resume. Each answer from shore about it sets the timer again.
 */
export class OfferInFlight {
  private current: { id: string; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly answerTimeoutMs: number,
    /** Shore did not answer in time: the item is no longer in flight (the outbox offers it again). */
    private readonly onTimeout: () => void,
  ) {}

  /** The id in flight, if any. */
  get id(): string | undefined {
    return this.current?.id;
  }

  start(id: string): void {
    this.clear();
    this.current = { id, timer: this.timer() };
  }

  /** Shore answered about the item in flight: it waits for the next answer anew. */
  answered(): void {
    if (!this.current) return;
    clearTimeout(this.current.timer);
    this.current.timer = this.timer();
  }

  /** Shore holds the item (a budget used up): it stays in flight with no timer until shore answers again. */
  hold(): void {
    if (this.current) clearTimeout(this.current.timer);
  }

  clear(): void {
    if (this.current) clearTimeout(this.current.timer);
    this.current = undefined;
  }

  private timer(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.current = undefined;
      this.onTimeout();
    }, this.answerTimeoutMs);
    timer.unref();
    return timer;
  }
}

/** The bytes from `offset` on, in chunks of at most `chunkBytes`, each with where it starts. */
export function sendFromOffset(bytes: Uint8Array, offset: number, chunkBytes: number, send: (at: number, chunk: Uint8Array) => void): void {
  for (let at = Math.min(offset, bytes.length); at < bytes.length; at += chunkBytes) send(at, bytes.subarray(at, Math.min(bytes.length, at + chunkBytes)));
}
