import { AccessUnitJoiner, type VideoPacket } from './access-unit.ts';
import { type AvcConfig, parseAvcConfig } from './avc.ts';
import { FlvReader } from './flv.ts';
import { initSegment, mediaFragment } from '@ship-cctv/media';
import { type Fmp4Unit, asBuffer } from './fmp4.ts';

/**
 * Repackages the encoder's FLV into the fragmented MP4 the agent link carries, one fragment per
 * frame the moment the frame's tag is complete.
 *
 * Why: ffmpeg's MP4 muxer writes a fragment only when the next frame arrives, because the sample
 * duration is the gap to the next decode time; at 10 fps that holds every frame back 100 ms. FLV
 * (`-f flv -flush_packets 1`) writes each frame at once with its decode time in ms. The packager
 * takes the sample duration as the gap before this frame (1/frameRate for the first, and always
 * for the encoder's constant-rate output), so nothing waits. Shore, relay and player see the same
 * stream as before: an init segment (ftyp + moov with avcC from the FLV sequence header) then
 * moof + mdat per frame, keyframes flagged. A changed sequence header (a copied camera that
 * changed its parameters) gives a new init segment before the next frame.
 *
 * Time: ticks of TIMESCALE (90 kHz, exact for ms and for the usual frame rates), decode times
 * rebased so the first frame is at 0. A stream on the frame grid (the encoder's constant-rate
 * output, whose ms timestamps are n/frameRate rounded) is put back exactly on it; any other keeps
 * its ms. Decode times only ever increase.
 *
 * Video only: FLV audio tags are skipped (the streams carry no sound yet; AAC would need a second
 * trak from its AudioSpecificConfig and its own track fragments).
 */

export const TIMESCALE = 90_000;

export interface FlvPackagerOptions {
  /** Frames per second of the stream: the sample duration and the grid decode times snap to. */
  frameRate: number;
  /** Picture size for the init segment when the SPS cannot be read (it is read when it can). */
  width?: number;
  height?: number;
  /**
   * A camera's own stream (copied): join the packets of one decode time into one picture and put
   * its parameter sets before its slices (access-unit.ts). An encoder's own output has whole
   * pictures already and needs none of it.
   */
  joinSlices?: boolean;
}

/** Bytes in, Fmp4Reader's units out: what LiveStreams forwards. */
export interface Fmp4Source {
  push(chunk: Uint8Array): Fmp4Unit[];
  readonly pendingBytes: number;
}

/** A frame further from the previous one than this is taken as a time jump, not its duration. */
const MAX_GAP_SECONDS = 2;

export class FlvToFmp4 implements Fmp4Source {
  private readonly flv = new FlvReader();
  private readonly frameTicks: number;
  private config: AvcConfig | undefined;
  private sequence = 0;
  private firstMs: number | undefined;
  private lastTicks: number | undefined;
  private lastGap: number | undefined;
  private joiner: AccessUnitJoiner | undefined;

  constructor(private readonly opts: FlvPackagerOptions) {
    if (!(opts.frameRate > 0)) throw new Error(`frame rate ${opts.frameRate} is not positive`);
    this.frameTicks = Math.round(TIMESCALE / opts.frameRate);
  }

  /** Closes a picture still waiting for slices (the stream ended). */
  flush(): Fmp4Unit[] {
    return (this.joiner?.flush() ?? []).map((p) => this.fragment(p));
  }

  get pendingBytes(): number {
    return this.flv.pendingBytes;
  }

  /** The stream's H.264 configuration, once its sequence header has come. */
  get avcConfig(): AvcConfig | undefined {
    return this.config;
  }

  /** Feeds encoder output in order; returns the init segment and fragments it completes. Throws on a malformed stream. */
  push(chunk: Uint8Array): Fmp4Unit[] {
    const out: Fmp4Unit[] = [];
    for (const item of this.flv.push(chunk)) {
      if (item.kind === 'config') {
        if (this.config?.record.equals(item.record)) continue;
        // First, or the camera changed its parameters: a new init segment before the next frame.
        const config = parseAvcConfig(Buffer.from(item.record));
        const width = config.width ?? this.opts.width;
        const height = config.height ?? this.opts.height;
        if (width === undefined || height === undefined) throw new Error('picture size unknown: the SPS is unreadable');
        // A picture still held belongs to the old parameters: it goes before the new init segment.
        out.push(...this.flush());
        this.joiner = undefined;
        this.config = config;
        out.push({ kind: 'init', bytes: asBuffer(initSegment({ avcConfig: config.record, width, height, timescale: TIMESCALE })) });
      } else if (item.kind === 'frame') {
        if (!this.config) throw new Error('H.264 frame before the sequence header');
        if (this.opts.joinSlices) {
          this.joiner ??= new AccessUnitJoiner(this.config.nalLengthSize);
          for (const picture of this.joiner.push(item)) out.push(this.fragment(picture));
        } else out.push(this.fragment(item));
      }
    }
    return out;
  }

  private fragment(item: VideoPacket): Fmp4Unit {
    const ticks = this.decodeTicks(item.timestampMs);
    const gap = this.lastTicks === undefined ? undefined : ticks - this.lastTicks;
    if (gap !== undefined && gap <= MAX_GAP_SECONDS * TIMESCALE) this.lastGap = gap;
    this.lastTicks = ticks;
    // The next frame is not here yet: expect it one gap later (1/frameRate for the encoder's own output).
    const duration = this.lastGap ?? this.frameTicks;
    return {
      kind: 'fragment',
      keyframe: item.keyframe,
      bytes: asBuffer(mediaFragment({
        sequence: ++this.sequence,
        baseMediaDecodeTime: ticks,
        duration,
        keyframe: item.keyframe,
        compositionOffset: item.compositionMs * (TIMESCALE / 1000),
        data: item.data,
      })),
    };
  }

  /** Decode time in ticks since the first frame: on the frame grid when the ms time is a rounded grid point. */
  private decodeTicks(timestampMs: number): number {
    this.firstMs ??= timestampMs;
    const ms = timestampMs - this.firstMs;
    const n = this.gridIndex(ms);
    let ticks = n === undefined ? ms * (TIMESCALE / 1000) : Math.round((n * TIMESCALE) / this.opts.frameRate);
    if (this.lastTicks !== undefined && ticks <= this.lastTicks) ticks = this.lastTicks + 1;
    return ticks;
  }

  /** Frame number n when `ms` is n/frameRate seconds rounded to the ms. */
  private gridIndex(ms: number): number | undefined {
    const n = Math.round((ms * this.opts.frameRate) / 1000);
    return Math.abs((n * 1000) / this.opts.frameRate - ms) <= 0.5 + 1e-9 ? n : undefined;
  }
}
