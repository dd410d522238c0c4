/**
 * Everything the agent sends to shore passes here, in priority classes. The ship's uplink is the
 * scarcest resource there is: when it is full, what matters most goes first — control (status,
 * answers, link reports) before talkback audio, before live video, before events (what the ship's
 * analysis found: a record and one small picture each, which an operator is waiting to hear of),
 * before pictures, before
 * ship-end playback, before backfill (copies of recorded segments refilling shore's recording,
 * which nobody waits to watch). The WebSocket is fed only while its own buffer is under a low-water mark, so a
 * higher class overtakes what a lower one queued, one link frame at a time (frames are at most
 * LINK_FRAME_MAX_PAYLOAD, so nothing waits long behind a frame already on its way). Within a class
 * the order is kept. Dropping is not done here: each stream's keyframe gate (keyframe-gate.ts)
 * decides from `bytesAhead`, the bytes that would go before its next frame.
 *
 * The socket's buffer is not the only queue: the operating system's and the satellite terminal's
 * are first-in-first-out too, and a picture handed to them delays live video as much as one in the
 * socket. Once shore acknowledges what it receives (link protocol 3, `useWindow`), only a send
 * window's worth (send-window.ts: about one round trip of what the link carries) is let out at
 * a time, so the rest waits here, in priority order. Control messages are small and never wait for
 * the window.
 */
export const UPLINK_CLASSES = ['control', 'talk', 'live', 'events', 'pictures', 'playback', 'backfill'] as const;
export type UplinkClass = (typeof UPLINK_CLASSES)[number];
/**
 * Background senders cut what they send into link frames of at most this: a frame already on its
 * way delays live by its size over the link's rate (8 KiB is 0.16 s on FleetBroadband's 400 kbit/s).
 */
export const BACKGROUND_FRAME_BYTES = 8 * 1024;
/** Classes that may use only what the link carries beside the others, never queue before them. */
const BACKGROUND: ReadonlySet<UplinkClass> = new Set(['events', 'pictures', 'playback', 'backfill']);

export interface UplinkSink {
  /** Hands data to the socket (text for JSON, binary for link frames). */
  write(data: string | Uint8Array): void;
  /** Bytes the socket holds but has not written yet (WebSocket.bufferedAmount). */
  buffered(): number;
}

export interface UplinkSchedulerOptions {
  /** The socket is fed while it holds fewer bytes than this. Default 64 KiB. */
  lowWaterBytes?: number;
  /** How often a waiting queue looks again at the socket's buffer. Default 10 ms. */
  pollMs?: number;
  /** Sees what leaves (bytes as on the wire) and what shore acknowledges: the link meter (link-meter.ts). */
  observer?: UplinkObserver;
}

/** What the uplink tells about the bytes it sends and shore acknowledges (times: performance.now()). */
export interface UplinkObserver {
  onSend(wireBytes: number, now: number): void;
  onAck(totalBytes: number, now: number): void;
}

import { STREAM_HEADER_BYTES, wsFrameOverhead } from '@ship-cctv/protocol';
import { SendWindow } from './send-window.ts';

const size = (data: string | Uint8Array) => (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);
/** What a message costs on the wire: shore acknowledges WebSocket frames, headers included (masked: the agent is the client). */
const wireSize = (bytes: number) => bytes + wsFrameOverhead(bytes, true);

export class UplinkScheduler {
  private readonly queues = new Map<UplinkClass, (string | Uint8Array)[]>(UPLINK_CLASSES.map((c) => [c, []]));
  private readonly queuedBytes = new Map<UplinkClass, number>(UPLINK_CLASSES.map((c) => [c, 0]));
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly lowWater: number;
  private readonly pollMs: number;
  private window: SendWindow | undefined;
  private readonly observer: UplinkObserver | undefined;
  /** Bytes on the wire since the link opened (what shore's acknowledgements count). */
  private wireSent = 0;

  constructor(
    private readonly sink: UplinkSink,
    opts: UplinkSchedulerOptions = {},
  ) {
    this.lowWater = opts.lowWaterBytes ?? 64 * 1024;
    this.pollMs = opts.pollMs ?? 10;
    this.observer = opts.observer;
  }

  send(cls: UplinkClass, data: string | Uint8Array): void {
    if (this.closed) return;
    this.queues.get(cls)?.push(data);
    this.queuedBytes.set(cls, (this.queuedBytes.get(cls) ?? 0) + size(data));
    this.pump();
  }

  /** From now on only a send window's worth may be unacknowledged (shore acknowledges: link protocol 3). */
  useWindow(window: SendWindow = new SendWindow()): void {
    window.sentBefore(this.wireSent);
    this.window = window;
  }

  /** Shore's `link.ack`: it has received `totalBytes` on this link. */
  acknowledged(totalBytes: number): void {
    const now = performance.now();
    this.window?.onAck(totalBytes, now);
    this.observer?.onAck(totalBytes, now);
    this.pump();
  }

  /**
   * Bytes the socket sent without this queue (WebSocket pings and pongs, `payloadBytes` long): shore
   * counts every byte it receives, so they are counted in what is on its way too.
   */
  sentBeside(payloadBytes: number): void {
    const now = performance.now();
    const bytes = wireSize(payloadBytes);
    this.wireSent += bytes;
    this.window?.onSend(bytes, now);
    this.observer?.onSend(bytes, now);
  }

  /** Bytes sent and not yet acknowledged by shore (undefined until shore acknowledges). */
  get bytesInFlight(): number | undefined {
    return this.window?.bytesInFlight;
  }

  /** Bytes of `cls` waiting in its queue. */
  queued(cls: UplinkClass): number {
    return this.queuedBytes.get(cls) ?? 0;
  }

  /** Bytes that leave before the next message of `cls`: those on their way and those of this class and the ones above it. */
  bytesAhead(cls: UplinkClass): number {
    let n = Math.max(this.sink.buffered(), this.window?.bytesInFlight ?? 0);
    for (const c of UPLINK_CLASSES) {
      n += this.queuedBytes.get(c) ?? 0;
      if (c === cls) break;
    }
    return n;
  }

  /**
   * Forgets the link frames of stream `streamId` of `kind` still waiting here (the stream stopped or
   * restarted): they would only cross a paid link to be dropped on shore. Returns the bytes dropped.
   */
  discardStream(kind: number, streamId: number): number {
    let dropped = 0;
    for (const cls of UPLINK_CLASSES) {
      const queue = this.queues.get(cls) ?? [];
      const kept = queue.filter((m) => {
        const ours = typeof m !== 'string' && m.length >= STREAM_HEADER_BYTES && m[0] === kind && new DataView(m.buffer, m.byteOffset, m.byteLength).getUint32(1) === streamId;
        if (ours) dropped += size(m);
        return !ours;
      });
      if (kept.length !== queue.length) {
        this.queues.set(cls, kept);
        this.queuedBytes.set(cls, (this.queuedBytes.get(cls) ?? 0) - queue.reduce((n, m) => n + size(m), 0) + kept.reduce((n, m) => n + size(m), 0));
      }
    }
    return dropped;
  }

  /** The link is gone: what waits is dropped (shore asks again after reconnecting). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const c of UPLINK_CLASSES) {
      this.queues.set(c, []);
      this.queuedBytes.set(c, 0);
    }
  }

  private pump(): void {
    while (!this.closed && this.sink.buffered() < this.lowWater) {
      const cls = UPLINK_CLASSES.find((c) => (this.queues.get(c)?.length ?? 0) > 0);
      if (cls === undefined) return;
      const queue = this.queues.get(cls);
      const next = queue?.[0];
      if (queue === undefined || next === undefined) return;
      const bytes = size(next);
      const now = performance.now();
      if (cls !== 'control' && this.window && !this.window.allowsMore(now, BACKGROUND.has(cls))) break;
      queue.shift();
      this.queuedBytes.set(cls, (this.queuedBytes.get(cls) ?? 0) - bytes);
      const wire = wireSize(bytes);
      this.wireSent += wire;
      this.window?.onSend(wire, now);
      this.observer?.onSend(wire, now);
      this.sink.write(next);
    }
    if (!this.closed && !this.timer && UPLINK_CLASSES.some((c) => (this.queues.get(c)?.length ?? 0) > 0)) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, this.pollMs);
    }
  }
}
