import { AccessUnitJoiner, type VideoPacket } from './access-unit.ts';
import { type AvcConfig, parseAvcConfig } from './avc.ts';
import { FlvReader } from './flv.ts';
import { type AudioRun, TRACK_ID, initSegment, mediaFragment, withProducerTime } from '@ship-cctv/media';
import { AAC_FRAME_SAMPLES, AAC_PRIMING_SAMPLES, aacLcConfig, sameAacConfig } from './aac.ts';
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
 * Sound (option `audio`): the encoder writes its AAC frames as a second FLV stream (its own output,
 * so its muxer never holds a picture back to interleave it with sound), fed here with pushAudio.
 * The init segment names the sound track from the start (its AudioSpecificConfig follows from the
 * rate and channels we chose), and the sound frames that arrived since the previous picture ride
 * in the next picture's fragment as a second traf (one moof per picture, ~70 bytes for the sound
 * run instead of a moof per sound frame). Sound times count from the same first picture as the
 * video's, in samples (the track's timescale), continuous while the frames are.
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
  /** The stream has sound: AAC-LC frames fed with pushAudio (an FLV stream of its own). */
  audio?: { sampleRate: number; channels: number; bitrateKbps?: number };
  /**
   * A wall clock (epoch ms): each fragment gets a producer reference time box (prft) saying when
   * its picture left the encoder, from which the player tells how old the picture on screen is.
   * Live streams pass Date.now, or, from a camera session, Date.now less the camera's own delay
   * (url-camera.ts capturedClock); without it no prft is written.
   */
  outputClock?: () => number;
}

interface PendingAudio {
  timestampMs: number;
  data: Buffer;
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
  private readonly audioFlv = new FlvReader();
  private audioConfig: Buffer | undefined;
  private pendingAudio: PendingAudio[] = [];
  /** Decode time (samples) of the next sound frame when the sound is continuous. */
  private nextAudioTicks: number | undefined;
  private lastInit: { width: number; height: number } | undefined;

  constructor(private readonly opts: FlvPackagerOptions) {
    if (!(opts.frameRate > 0)) throw new Error(`frame rate ${opts.frameRate} is not positive`);
    this.frameTicks = Math.round(TIMESCALE / opts.frameRate);
    if (opts.audio) this.audioConfig = aacLcConfig(opts.audio.sampleRate, opts.audio.channels);
  }

  /** Sound frames waiting for the next picture. */
  get pendingAudioFrames(): number {
    return this.pendingAudio.length;
  }

  /**
   * Feeds the encoder's sound output (FLV of AAC frames) in order. Returns a new init segment only
   * when the encoder's AudioSpecificConfig describes other sound than the expected one (never for
   * our encoder, whose config only adds an explicit "no SBR" to it: see sameAacConfig).
   */
  pushAudio(chunk: Uint8Array): Fmp4Unit[] {
    const out: Fmp4Unit[] = [];
    if (!this.opts.audio) throw new Error('sound fed to a stream without a sound track');
    for (const item of this.audioFlv.push(chunk)) {
      if (item.kind === 'audioConfig') {
        // The config the init segment named already (byte for byte, or the same sound said longer).
        if (this.audioConfig && (this.audioConfig.equals(item.config) || sameAacConfig(this.audioConfig, item.config))) continue;
        this.audioConfig = Buffer.from(item.config);
        if (this.config && this.lastInit) out.push(this.init(this.lastInit.width, this.lastInit.height));
      } else if (item.kind === 'audio') {
        this.pendingAudio.push({ timestampMs: item.timestampMs, data: item.data });
      }
    }
    return out;
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
        out.push(this.init(width, height));
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

  private init(width: number, height: number): Fmp4Unit {
    if (!this.config) throw new Error('init segment before the sequence header');
    this.lastInit = { width, height };
    const { audio } = this.opts;
    const sound = audio && this.audioConfig ? { audioConfig: this.audioConfig, sampleRate: audio.sampleRate, channels: audio.channels, bitrate: (audio.bitrateKbps ?? 0) * 1000 } : undefined;
    return { kind: 'init', bytes: asBuffer(initSegment({ avcConfig: this.config.record, width, height, timescale: TIMESCALE, ...(sound ? { audio: sound } : {}) })) };
  }

  /**
   * The sound frames that go with the next picture: the continuous run of those pending (frames
   * before the first picture, or from before a time jump, are dropped; after a gap in the sound the
   * rest waits for the following picture, which starts a new run).
   */
  private takeAudio(): AudioRun | undefined {
    const { audio } = this.opts;
    if (!audio || this.firstMs === undefined || this.pendingAudio.length === 0) return undefined;
    const samples: Buffer[] = [];
    let base: number | undefined;
    let next = this.nextAudioTicks;
    while (this.pendingAudio.length > 0) {
      const frame = this.pendingAudio[0] as PendingAudio;
      const measured = Math.round(((frame.timestampMs - this.firstMs) * audio.sampleRate) / 1000) - AAC_PRIMING_SAMPLES;
      // ms rounding: a frame within half a frame of where the last one ended continues it.
      const ticks = next !== undefined && Math.abs(measured - next) < AAC_FRAME_SAMPLES / 2 ? next : measured;
      if (ticks < 0 || (next !== undefined && ticks < next)) {
        this.pendingAudio.shift();
        continue;
      }
      if (base !== undefined && ticks !== next) break; // a gap: a new run in the next fragment
      base ??= ticks;
      samples.push(frame.data);
      next = ticks + AAC_FRAME_SAMPLES;
      this.pendingAudio.shift();
    }
    this.nextAudioTicks = next;
    return base === undefined ? undefined : { baseMediaDecodeTime: base, sampleDuration: AAC_FRAME_SAMPLES, samples };
  }

  private fragment(item: VideoPacket): Fmp4Unit {
    const ticks = this.decodeTicks(item.timestampMs);
    const gap = this.lastTicks === undefined ? undefined : ticks - this.lastTicks;
    if (gap !== undefined && gap <= MAX_GAP_SECONDS * TIMESCALE) this.lastGap = gap;
    this.lastTicks = ticks;
    // The next frame is not here yet: expect it one gap later (1/frameRate for the encoder's own output).
    const duration = this.lastGap ?? this.frameTicks;
    const audio = this.takeAudio();
    let audioBytes = 0;
    for (const x of audio?.samples ?? []) audioBytes += x.length;
    const fragment = mediaFragment({
      sequence: ++this.sequence,
      baseMediaDecodeTime: ticks,
      duration,
      keyframe: item.keyframe,
      compositionOffset: item.compositionMs * (TIMESCALE / 1000),
      data: item.data,
      ...(audio ? { audio } : {}),
    });
    const clock = this.opts.outputClock;
    return {
      kind: 'fragment',
      keyframe: item.keyframe,
      ...(audio ? { audioBytes } : {}),
      bytes: asBuffer(clock ? withProducerTime(fragment, { trackId: TRACK_ID, wallMs: clock(), mediaTime: ticks }) : fragment),
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
