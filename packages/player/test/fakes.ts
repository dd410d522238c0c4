import { afterEach, beforeEach, vi } from 'vitest';
import type { SourceBufferLike } from '../src/append-queue.ts';
import { concatBytes, initSegment as writeInit, isInitSegment, mediaFragment } from '@ship-cctv/media';
import type { SocketLike } from '../src/types.ts';
import type { DecoderLike, FrameSinkDeps } from '../src/frames/frame-sink.ts';

/** TimeRanges over plain pairs. */
export function timeRanges(ranges: Array<[number, number]>): TimeRanges {
  return {
    length: ranges.length,
    start: (i: number) => ranges[i]?.[0] ?? Number.NaN,
    end: (i: number) => ranges[i]?.[1] ?? Number.NaN,
  };
}

/**
 * A SourceBuffer that records calls. Each media append (not an init segment) extends the buffer by `secondsPerAppend` (from 0
 * when it is empty; timestamps are not modelled). With `autoComplete` an operation ends on
 * the next microtask; otherwise the test calls complete().
 */
export class FakeSourceBuffer extends EventTarget implements SourceBufferLike {
  updating = false;
  mode: AppendMode = 'segments';
  timestampOffset = 0;
  ranges: Array<[number, number]> = [];
  readonly calls: Array<{ op: 'append'; bytes: number[] } | { op: 'remove'; start: number; end: number } | { op: 'changeType'; mime: string }> = [];
  /** Appends that throw QuotaExceededError before one succeeds. */
  quotaFailures = 0;
  secondsPerAppend = 1;

  constructor(private readonly autoComplete = false) {
    super();
  }

  get buffered(): TimeRanges {
    return timeRanges(this.ranges);
  }

  appendBuffer(data: BufferSource): void {
    if (this.updating) throw new DOMException('updating', 'InvalidStateError');
    if (this.quotaFailures > 0) {
      this.quotaFailures--;
      throw new DOMException('full', 'QuotaExceededError');
    }
    const bytes = [...new Uint8Array(ArrayBuffer.isView(data) ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) : data)];
    this.calls.push({ op: 'append', bytes });
    const last = this.ranges.at(-1);
    if (!isInitSegment(new Uint8Array(bytes))) {
      if (last) last[1] += this.secondsPerAppend;
      else this.ranges.push([0, this.secondsPerAppend]);
    }
    this.begin();
  }

  remove(start: number, end: number): void {
    if (this.updating) throw new DOMException('updating', 'InvalidStateError');
    this.calls.push({ op: 'remove', start, end });
    const first = this.ranges[0];
    if (first) first[0] = Math.max(first[0], end);
    this.begin();
  }

  changeType(mime: string): void {
    if (this.updating) throw new DOMException('updating', 'InvalidStateError');
    this.calls.push({ op: 'changeType', mime });
  }

  complete(): void {
    if (!this.updating) throw new Error('nothing to complete');
    this.updating = false;
    this.dispatchEvent(new Event('updateend'));
  }

  private begin(): void {
    this.updating = true;
    if (this.autoComplete) queueMicrotask(() => this.complete());
  }
}

/** A MediaSource that opens when the test says so and hands out FakeSourceBuffers. */
export class FakeMediaSource extends EventTarget {
  static instances: FakeMediaSource[] = [];
  static isTypeSupported(mime: string): boolean {
    return mime.includes('avc1.');
  }

  readyState: ReadyState = 'closed';
  sourceBuffer: FakeSourceBuffer | undefined;
  mimes: string[] = [];

  constructor() {
    super();
    FakeMediaSource.instances.push(this);
  }

  open(): void {
    this.readyState = 'open';
    this.dispatchEvent(new Event('sourceopen'));
  }

  addSourceBuffer(mime: string): SourceBuffer {
    this.mimes.push(mime);
    this.sourceBuffer = new FakeSourceBuffer(true);
    return this.sourceBuffer as unknown as SourceBuffer;
  }
}

/** A WebSocket the test drives from the server side. */
export class FakeSocket implements SocketLike {
  static instances: FakeSocket[] = [];

  binaryType: BinaryType = 'blob';
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  readonly sent: unknown[] = [];
  closedByClient = false;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = 3;
  }

  // Server side
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  receive(message: object | Uint8Array): void {
    const data = message instanceof Uint8Array ? message.slice().buffer : JSON.stringify(message);
    this.onmessage?.({ data } as MessageEvent);
  }

  serverClose(): void {
    this.readyState = 3;
    this.onclose?.({ code: 1006 } as CloseEvent);
  }
}

// ── a player under test ───────────────────────────────────────────────────────────────────────

/** A <video> whose clock and paused flag the test controls (jsdom decodes nothing). */
export function makeVideo() {
  const video = document.createElement('video');
  // readyState: what the element says it holds (jsdom's stays HAVE_NOTHING); HAVE_ENOUGH_DATA unless a test says otherwise.
  const clock = { time: 0, paused: true, readyState: 4 };
  Object.defineProperty(video, 'currentTime', { get: () => clock.time, set: (t: number) => (clock.time = t) });
  Object.defineProperty(video, 'paused', { get: () => clock.paused });
  Object.defineProperty(video, 'readyState', { get: () => clock.readyState });
  const play = vi.spyOn(video, 'play').mockImplementation(async () => {
    clock.paused = false;
  });
  vi.spyOn(video, 'pause').mockImplementation(() => {
    clock.paused = true;
  });
  vi.spyOn(video, 'load').mockImplementation(() => {});
  return { video, clock, play };
}

/**
 * Fake timers, a fixed backoff jitter and blob URLs for each test of a file; the players `keep`
 * is given are destroyed after it, with the fake sockets and media sources.
 */
export function playerTestEnvironment(): { keep<P extends { destroy(): void }>(player: P): P } {
  let players: Array<{ destroy(): void }> = [];
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    URL.createObjectURL = () => 'blob:fake-media-source';
    URL.revokeObjectURL = () => {};
  });
  afterEach(() => {
    for (const p of players) p.destroy();
    players = [];
    FakeSocket.instances = [];
    FakeMediaSource.instances = [];
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return {
    keep: (player) => {
      players.push(player);
      return player;
    },
  };
}

// ── minimal fMP4 (written by the shared writer) ───────────────────────────────────────────────

export { box } from '@ship-cctv/media';
export const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

/** An H.264 init segment (ftyp + moov, one video track) with the given timescale. */
export function initSegment(timescale: number): Uint8Array {
  // An avcC whose parameter sets nobody decodes here: version 1, Baseline level 3.0, 4-byte lengths, no SPS/PPS.
  return writeInit({ avcConfig: Uint8Array.of(1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0), width: 320, height: 180, timescale });
}

/** One sample (moof with a 64-bit tfdt + mdat) of the video track. */
export function fragment(baseDecodeTime: number, payload = [1, 2, 3]): Uint8Array {
  return mediaFragment({ sequence: 1, baseMediaDecodeTime: baseDecodeTime, duration: 1, keyframe: true, data: Uint8Array.from(payload) });
}

// ── WebCodecs for the FramePlayer ─────────────────────────────────────────────────────────────

/**
 * WebCodecs for FramePlayer: each sample decodes into a frame a millisecond later, on the test's
 * timers; `show` sees each frame the sink puts on screen.
 */
export function decoderDeps(show: (frame: VideoFrame) => void = () => undefined): FrameSinkDeps {
  return {
    createDecoder: (init) => {
      const decoder: DecoderLike & { state: string } = {
        state: 'unconfigured',
        decodeQueueSize: 0,
        configure() {
          decoder.state = 'configured';
        },
        decode(chunk) {
          const timestamp = (chunk as unknown as { timestamp: number }).timestamp;
          setTimeout(() => init.output({ timestamp, close: () => undefined } as unknown as VideoFrame), 1);
        },
        reset() {},
        close() {
          decoder.state = 'closed';
        },
      };
      return decoder;
    },
    chunk: (init) => init as unknown as EncodedVideoChunk,
    show,
    now: () => performance.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}
