/** The part of SourceBuffer the queue drives, so tests can hand in a fake. */
export interface SourceBufferLike {
  readonly updating: boolean;
  readonly buffered: TimeRanges;
  appendBuffer(data: BufferSource): void;
  remove(start: number, end: number): void;
  addEventListener(type: 'updateend' | 'error', listener: () => void): void;
  removeEventListener(type: 'updateend' | 'error', listener: () => void): void;
}

export type QueueOp<SB extends SourceBufferLike = SourceBufferLike> =
  | { kind: 'append'; data: Uint8Array<ArrayBuffer> }
  | { kind: 'remove'; start: number; end: number }
  /** Runs when the buffer is idle, in order with the appends: changeType, timestampOffset. */
  | { kind: 'run'; run: (sb: SB) => void };

export interface AppendQueueHooks<SB extends SourceBufferLike> {
  /** An append or remove finished (the buffered ranges changed). */
  onUpdateEnd?(sb: SB): void;
  /** The buffer is full: return a range to remove before retrying, or undefined to retry later. */
  onQuotaExceeded(sb: SB): [number, number] | undefined;
  /** appendBuffer threw something else, a run op failed, or the SourceBuffer reported an error. */
  onError(error: unknown): void;
}

/**
 * Serialises work on one SourceBuffer. appendBuffer/remove throw while `updating`, so everything
 * waits here for `updateend`; appends queued meanwhile go in as one (a fragment per frame would
 * otherwise cost one round trip through the media pipeline each). Ops queued before a SourceBuffer
 * exists (MediaSource still opening) wait for attach().
 */
export class AppendQueue<SB extends SourceBufferLike = SourceBufferLike> {
  private readonly ops: Array<QueueOp<SB>> = [];
  private sb: SB | undefined;
  /** Set by a quota failure with nothing to evict; cleared by the next pump() from outside. */
  private blocked = false;
  private queuedBytes = 0;

  constructor(private readonly hooks: AppendQueueHooks<SB>) {}

  get pendingBytes(): number {
    return this.queuedBytes;
  }

  get attached(): SB | undefined {
    return this.sb;
  }

  /** Ops queued before (while the MediaSource opened) go in first. */
  attach(sb: SB): void {
    this.unlisten();
    this.sb = sb;
    sb.addEventListener('updateend', this.handleUpdateEnd);
    sb.addEventListener('error', this.handleError);
    this.pump();
  }

  /** Forget the SourceBuffer and everything queued (its MediaSource is being replaced). */
  detach(): void {
    this.unlisten();
    this.sb = undefined;
    this.ops.length = 0;
    this.queuedBytes = 0;
    this.blocked = false;
  }

  append(data: Uint8Array<ArrayBuffer>): void {
    this.ops.push({ kind: 'append', data });
    this.queuedBytes += data.byteLength;
    this.next();
  }

  remove(start: number, end: number): void {
    this.ops.push({ kind: 'remove', start, end });
    this.next();
  }

  run(run: (sb: SB) => void): void {
    this.ops.push({ kind: 'run', run });
    this.next();
  }

  /** Start the next op if the buffer is idle. Also the retry after a quota failure. */
  pump(): void {
    this.blocked = false;
    this.next();
  }

  private unlisten(): void {
    this.sb?.removeEventListener('updateend', this.handleUpdateEnd);
    this.sb?.removeEventListener('error', this.handleError);
  }

  private readonly handleUpdateEnd = (): void => {
    const sb = this.sb;
    if (!sb) return;
    this.hooks.onUpdateEnd?.(sb);
    this.next();
  };

  private readonly handleError = (): void => {
    this.hooks.onError(new Error('SourceBuffer error'));
  };

  private next(): void {
    const sb = this.sb;
    if (!sb || this.blocked) return;
    while (!sb.updating && this.ops.length > 0) {
      const op = this.ops.shift();
      if (!op) return;
      if (op.kind === 'run') {
        try {
          op.run(sb);
        } catch (err) {
          this.hooks.onError(err);
          return;
        }
        continue;
      }
      if (op.kind === 'remove') {
        if (op.end <= op.start) continue;
        try {
          sb.remove(op.start, op.end);
        } catch (err) {
          this.hooks.onError(err);
        }
        return;
      }
      const data = this.coalesce(op.data);
      try {
        sb.appendBuffer(data);
        this.queuedBytes -= data.byteLength;
      } catch (err) {
        if (!isQuotaExceeded(err)) {
          this.hooks.onError(err);
          return;
        }
        // Keep the data in front and make room first; never drop it: a lost fragment breaks
        // decoding until the next keyframe.
        this.ops.unshift({ kind: 'append', data });
        const evict = this.hooks.onQuotaExceeded(sb);
        if (!evict || evict[1] <= evict[0]) {
          this.blocked = true;
          return;
        }
        this.ops.unshift({ kind: 'remove', start: evict[0], end: evict[1] });
        continue;
      }
      return;
    }
  }

  /** Joins this append with the appends right behind it (not across removes or run ops). */
  private coalesce(first: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    let count = 0;
    let bytes = first.byteLength;
    for (const op of this.ops) {
      if (op.kind !== 'append') break;
      count++;
      bytes += op.data.byteLength;
    }
    if (count === 0) return first;
    const out = new Uint8Array(bytes);
    out.set(first, 0);
    let at = first.byteLength;
    for (const op of this.ops.splice(0, count)) {
      if (op.kind !== 'append') continue;
      out.set(op.data, at);
      at += op.data.byteLength;
    }
    return out;
  }
}

function isQuotaExceeded(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'QuotaExceededError';
}
