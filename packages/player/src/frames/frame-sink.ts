import type { TrackSample, VideoDecoderSetup } from '@ship-cctv/media';
import { PlayoutClock, type PlayoutClockOptions } from './playout-clock.ts';

/** The part of a decoded frame the sink uses (WebCodecs VideoFrame). */
export interface FrameLike {
  /** Microseconds: the sample's presentation time. */
  readonly timestamp: number;
  close(): void;
}

/** The part of WebCodecs' VideoDecoder the sink uses. */
export interface DecoderLike {
  readonly state: string;
  readonly decodeQueueSize: number;
  configure(config: VideoDecoderConfig): void;
  decode(chunk: EncodedVideoChunk): void;
  reset(): void;
  close(): void;
}

export interface FrameSinkDeps<F extends FrameLike = VideoFrame> {
  createDecoder(init: { output(frame: F): void; error(error: Error): void }): DecoderLike;
  chunk(init: EncodedVideoChunkInit): EncodedVideoChunk;
  /** Puts a frame on screen (takes it over). */
  show(frame: F): void;
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface FrameSinkEvents {
  /** A frame went on screen: its media time, ms, and how late after its due time, ms. */
  presented(mediaMs: number, lateMs: number): void;
  /** A decoded frame never showed (a newer one was due at the same time). */
  skipped(): void;
  /** The decoder failed (a corrupt sample, an unsupported stream). */
  failed(error: Error): void;
}

/** Decoded frames waiting for their time: more than this and the oldest are dropped (a hidden tab). */
const MOST_WAITING = 30;
/** Samples looked back on to learn how deep B-frames are reordered (H.264 reorders at most 16). */
const MOST_REORDERED = 17;
/** Frames due within this many ms go now (timers fire late by a millisecond or two anyway). */
const EARLY_MS = 2;
/** A frame due this soon after the one going out would replace it before the screen refreshes: it goes instead. */
const SAME_REFRESH_MS = 10;

/**
 * Decodes live samples as they arrive (WebCodecs) and puts each frame on screen at its time from the
 * PlayoutClock. Decoding starts at once, so a frame is ready before it is due; it waits in a short
 * queue and goes out on a timer. A newer generation (definition change, reconnect) reconfigures the
 * decoder, waits for a keyframe and restarts the clock; the last frame stays on screen meanwhile.
 */
export class FrameSink<F extends FrameLike = VideoFrame> {
  readonly clock: PlayoutClock;
  private decoder: DecoderLike | undefined;
  private configured: { codec: string; description: string } | undefined;
  private needKeyframe = true;
  private readonly waiting: Array<{ frame: F; due: number }> = [];
  private timer: unknown;
  private newestShownUs = -Infinity;
  /** Samples given to the decoder whose frames have not come out yet. */
  private inDecoder = 0;
  /**
   * Frames the decoder holds back to put them out in presentation order (B-frames): learnt from
   * the samples, the most that came before one in decode order and after it in presentation order.
   */
  private reorderDepth = 0;
  /** Presentation times of the last samples, for reorderDepth. */
  private readonly recentPts: number[] = [];

  constructor(
    private readonly deps: FrameSinkDeps<F>,
    private readonly on: FrameSinkEvents,
    clockOptions?: PlayoutClockOptions,
  ) {
    this.clock = new PlayoutClock(clockOptions);
  }

  /** A new init segment: the decoder takes its setup; the next sample it decodes must be a keyframe. */
  configure(setup: VideoDecoderSetup): void {
    const key = { codec: setup.codec, description: Array.from(setup.description).join(',') };
    this.needKeyframe = true;
    this.clock.restart();
    this.newestShownUs = -Infinity;
    if (this.decoder && this.decoder.state !== 'closed' && this.configured?.codec === key.codec && this.configured.description === key.description) return;
    const decoder = this.ensureDecoder();
    decoder.configure({
      codec: setup.codec,
      codedWidth: setup.codedWidth,
      codedHeight: setup.codedHeight,
      // AV1 needs none: its sequence header rides in each keyframe (the av1C copy is for MP4 readers).
      ...(setup.codec.startsWith('av01') ? {} : { description: setup.description }),
      optimizeForLatency: true,
    });
    this.configured = key;
  }

  /** Samples of a fragment that arrived now, timescale ticks per second given. */
  push(samples: readonly TrackSample[], timescale: number): void {
    const decoder = this.decoder;
    if (!decoder || decoder.state !== 'configured') return;
    const now = this.deps.now();
    for (const sample of samples) {
      if (this.needKeyframe && !sample.keyframe) continue;
      this.needKeyframe = false;
      const mediaMs = (sample.presentationTime / timescale) * 1000;
      this.noteOrder(sample.presentationTime);
      this.clock.arrived(now, mediaMs);
      this.inDecoder++;
      decoder.decode(
        this.deps.chunk({
          type: sample.keyframe ? 'key' : 'delta',
          timestamp: Math.round(mediaMs * 1000),
          duration: Math.round((sample.duration / timescale) * 1e6),
          data: sample.data,
        }),
      );
    }
  }

  private noteOrder(pts: number): void {
    const later = this.recentPts.filter((p) => p > pts).length;
    if (later > this.reorderDepth) this.reorderDepth = later;
    this.recentPts.push(pts);
    if (this.recentPts.length > MOST_REORDERED) this.recentPts.shift();
  }

  /** Frames waiting to be shown. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Drops what waits and the decoder's work; the frame on screen stays. */
  reset(): void {
    this.dropWaiting();
    this.needKeyframe = true;
    this.inDecoder = 0;
    this.recentPts.length = 0;
    if (this.decoder?.state === 'configured') this.decoder.reset();
    this.configured = undefined;
    this.clock.restart();
    this.newestShownUs = -Infinity;
  }

  close(): void {
    this.dropWaiting();
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = this.configured = undefined;
  }

  private ensureDecoder(): DecoderLike {
    if (this.decoder && this.decoder.state !== 'closed') return this.decoder;
    const decoder = this.deps.createDecoder({
      output: (frame) => this.decoded(frame),
      error: (error) => {
        this.dropWaiting();
        this.configured = undefined;
        this.on.failed(error);
      },
    });
    this.decoder = decoder;
    return decoder;
  }

  private decoded(frame: F): void {
    this.inDecoder = Math.max(0, this.inDecoder - 1);
    // Older than what is on screen (a keyframe's run decoded again): showing it would step back.
    if (frame.timestamp <= this.newestShownUs) {
      frame.close();
      this.on.skipped();
      return;
    }
    const due = this.clock.dueAt(frame.timestamp / 1000);
    this.waiting.push({ frame, due });
    while (this.waiting.length > MOST_WAITING) {
      this.waiting.shift()?.frame.close();
      this.on.skipped();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0) return;
    // The offset may have fallen since earlier frames were scheduled (a stream's start): the soonest due decides.
    const soonest = Math.min(...this.waiting.map((w) => w.due));
    const wait = soonest - this.deps.now();
    if (wait <= EARLY_MS) this.presentDue();
    else this.timer = this.deps.setTimer(() => this.presentDue(), wait);
  }

  /**
   * Shows the newest frame that is due (or due within the same screen refresh); those before it
   * are skipped — at a stream's start, the frames since the keyframe that a newer one overtook.
   */
  private presentDue(): void {
    this.timer = undefined;
    const now = this.deps.now();
    let pick = -1;
    for (let i = 0; i < this.waiting.length; i++) {
      const due = this.waiting[i]?.due ?? Infinity;
      const until = Math.max(now + EARLY_MS, pick >= 0 ? (this.waiting[pick]?.due ?? -Infinity) + SAME_REFRESH_MS : -Infinity);
      if (due <= until) pick = i;
    }
    const chosen = pick >= 0 ? this.waiting[pick] : undefined;
    // At the start, an overdue frame with newer ones still in the decoder (the joining burst) waits
    // for them: the newest goes on screen, not each in turn. Not for the frames a decoder holds
    // back to reorder B-frames: those come out only with the next samples.
    if (chosen && this.clock.starting && this.inDecoder > this.reorderDepth && now - chosen.due > EARLY_MS) return;
    if (chosen) {
      for (const skipped of this.waiting.splice(0, pick + 1).slice(0, -1)) {
        skipped.frame.close();
        this.on.skipped();
      }
      const lateMs = Math.max(0, now - chosen.due);
      // Decoded after its time: shown now, and the frames after it keep their spacing from here.
      if (lateMs > EARLY_MS) this.clock.late(chosen.due, now);
      this.newestShownUs = chosen.frame.timestamp;
      const mediaMs = chosen.frame.timestamp / 1000;
      this.deps.show(chosen.frame);
      this.on.presented(mediaMs, lateMs);
      // The frames already scheduled move with the offset.
      if (lateMs > EARLY_MS) for (const w of this.waiting) w.due += lateMs;
    }
    this.schedule();
  }

  private dropWaiting(): void {
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    this.timer = undefined;
    for (const w of this.waiting.splice(0)) w.frame.close();
  }
}
