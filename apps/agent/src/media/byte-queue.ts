/**
 * Bytes of a stream as they arrive in chunks, read from the front: a stream reader (fMP4 boxes,
 * FLV tags) peeks at a header and takes a whole unit once all of it is here, copying only when a
 * unit spans chunks.
 */
export class ByteQueue {
  private chunks: Buffer[] = [];
  private held = 0;

  /** Bytes held. */
  get length(): number {
    return this.held;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.held += chunk.length;
  }

  /** The first n bytes (n ≤ length), left in place. */
  peek(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) return first.subarray(0, n);
    // Merge just enough leading chunks to hold n bytes.
    let count = 0;
    let have = 0;
    while (have < n) have += (this.chunks[count++] as Buffer).length;
    const merged = Buffer.concat(this.chunks.slice(0, count));
    this.chunks.splice(0, count, merged);
    return merged.subarray(0, n);
  }

  /** Removes and returns the first n bytes (n ≤ length). */
  take(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const all = Buffer.concat(this.chunks);
      out = all.subarray(0, n);
      this.chunks = all.length > n ? [all.subarray(n)] : [];
    }
    this.held -= n;
    return out;
  }
}
