/**
 * Bytes of a stream as they arrive in chunks, read from the front: a stream reader (MP4 boxes, FLV
 * tags) peeks at a header and takes a whole unit once all of it is here. Chunks are referenced, not
 * copied: a unit inside one chunk is returned as a view of it (do not modify a chunk after pushing
 * it), and only a unit spanning chunks is copied.
 */
export class ByteQueue {
  private chunks: Uint8Array[] = [];
  /** Index of the first unconsumed chunk (avoids O(n) shift() with many tiny chunks). */
  private head = 0;
  /** Bytes already consumed from chunks[head]. */
  private offset = 0;
  private held = 0;

  /** Bytes held. */
  get length(): number {
    return this.held;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.held += chunk.length;
  }

  /** The first n bytes (n ≤ length), left in place. */
  peek(n: number): Uint8Array {
    const first = this.chunks[this.head];
    if (first && first.length - this.offset >= n) return first.subarray(this.offset, this.offset + n);
    const out = new Uint8Array(n);
    let filled = 0;
    let off = this.offset;
    for (let i = this.head; i < this.chunks.length && filled < n; i++) {
      const part = (this.chunks[i] as Uint8Array).subarray(off, off + (n - filled));
      out.set(part, filled);
      filled += part.length;
      off = 0;
    }
    return out;
  }

  /** Removes and returns the first n bytes (n ≤ length). */
  take(n: number): Uint8Array {
    const first = this.chunks[this.head];
    if (first && first.length - this.offset >= n) {
      const out = first.subarray(this.offset, this.offset + n);
      this.consume(n);
      return out;
    }
    const out = new Uint8Array(n);
    this.takeInto(n, out, 0);
    return out;
  }

  /** Moves the first n bytes (n ≤ length) into `into` at `at`, consuming them. */
  takeInto(n: number, into: Uint8Array, at: number): void {
    let left = n;
    let off = this.offset;
    for (let i = this.head; left > 0; i++) {
      const c = this.chunks[i];
      if (!c) throw new Error('ByteQueue underflow');
      const k = Math.min(c.length - off, left);
      into.set(c.subarray(off, off + k), at + (n - left));
      left -= k;
      off = 0;
    }
    this.consume(n);
  }

  clear(): void {
    this.chunks = [];
    this.head = 0;
    this.offset = 0;
    this.held = 0;
  }

  private consume(n: number): void {
    let left = n;
    while (left > 0) {
      const c = this.chunks[this.head];
      if (!c) throw new Error('ByteQueue underflow');
      const avail = c.length - this.offset;
      if (left >= avail) {
        left -= avail;
        this.head++;
        this.offset = 0;
      } else {
        this.offset += left;
        left = 0;
      }
    }
    this.held -= n;
    if (this.head === this.chunks.length) {
      this.chunks = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}
