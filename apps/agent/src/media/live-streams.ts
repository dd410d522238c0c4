import {
  type VideoCodec,
  type AgentStreamMessage,
  BINARY_KIND,
  type EncodeSpec,
  type ShoreStreamMessage,
  encodeStreamFrame,
  LINK_FRAME_MAX_PAYLOAD,
} from '@ship-cctv/protocol';
import type { CameraSources } from '../camera-sources.ts';
import type { Encoder, EncoderExit, EncoderOptions } from './encoder.ts';
import type { EncoderOutput } from './ffmpeg-args.ts';
import { type Fmp4Source, FlvToFmp4 } from './flv-packager.ts';
import { Fmp4Reader, type Fmp4Unit } from './fmp4.ts';
import { passFragment } from '../uplink/keyframe-gate.ts';
import { ffmpegVideoCodecs } from './encoders.ts';

/** The agent link as LiveStreams sees it: the current WebSocket's send functions and queue. */
export interface LiveLink {
  sendJson(msg: AgentStreamMessage): void;
  sendBinary(frame: Uint8Array): void;
  /** Bytes accepted but not yet sent (WebSocket.bufferedAmount). */
  bufferedAmount(): number;
  /** Forgets the stream's frames not yet sent (it stopped): they would cross the link for nothing. */
  discard?(streamId: number): void;
}

export interface LiveStreamsOptions {
  /** A stream that sends nothing this long after its start fails. Default 15 s. */
  firstByteTimeoutMs?: number;
  /** How often the uplink queue is reported while streams run. Default 1 s. */
  reportEveryMs?: number;
  /** Queue bound: this many seconds of the running streams' bitrate … Default 8. */
  maxQueueSeconds?: number;
  /** … but never below this many bytes. Default 1 MiB. */
  minQueueBytes?: number;
  /** Default "ffmpeg". */
  ffmpegCommand?: string;
  stopGraceMs?: number;
  /**
   * What the encoder writes: 'flv', repackaged here into the link's fragmented MP4 (default), or
   * 'fmp4', ffmpeg's own MP4 muxer, which holds every frame until the next one (for comparison).
   * AV1 always takes 'fmp4' (ffmpeg 5.1's FLV muxer has no AV1).
   */
  output?: EncoderOutput;
  /**
   * The codecs this agent encodes (its hello says so). Default: what the machine's ffmpeg has
   * (ffmpegVideoCodecs); `['h264']` makes an agent as before AV1.
   */
  codecs?: readonly VideoCodec[];
}

/** The reader that turns an encoder's output into the link's init segment and fragments. */
export function liveReader(output: EncoderOutput, frameRate: number, encode: EncodeSpec, copied = false, outputClock: () => number = Date.now): Fmp4Source {
  // A copied camera's pictures may come as several packets (slices): joined into one sample each.
  return output === 'flv' ? new FlvToFmp4({ frameRate, width: encode.width, height: encode.height, joinSlices: copied, outputClock }) : new Fmp4Reader({ outputClock });
}

interface LiveStream {
  id: number;
  cameraId: string;
  encode: EncodeSpec;
  encoder: Encoder | undefined;
  /** The encoder's output in, the link's fragmented MP4 out (set when the encoder starts). */
  reader: Fmp4Source | undefined;
  started: boolean;
  /** Shore asked to stop it: report `live.ended stopped`. */
  stopRequested: boolean;
  /** Ending without a word to shore (link gone, or replaced by a new start of the same id). */
  silent: boolean;
  /** A failure found on our side (malformed output), reported instead of the exit. */
  error: string | undefined;
  /** Fragments are being dropped until a keyframe finds the queue drained. */
  dropping: boolean;
  droppedFragments: number;
  /** Shore asked for sound (`live.start` audio). */
  audio: boolean;
  /** Bytes of sound frames sent up the link (in fragments that went). */
  audioBytes: number;
  /** What the camera source holds for the stream, let go when its encoder exits. */
  ended: (() => void) | undefined;
  /** What live.started says of the camera's codec and the ship's transcoding. */
  about?: { cameraCodec?: 'h264' | 'h265'; transcoded?: boolean };
}

/** A failure message to shore: reason, then ffmpeg's last words; credentials in URLs blanked. */
const MAX_MESSAGE_CHARS = 2_400;
export function failureMessage(prefix: string, detail?: string): string {
  const text = detail ? `${prefix}: ${detail}` : prefix;
  const safe = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');
  return safe.length <= MAX_MESSAGE_CHARS ? safe : `${safe.slice(0, 200)} … ${safe.slice(-(MAX_MESSAGE_CHARS - 203))}`;
}

function invalidEncode(e: EncodeSpec, codecs: ReadonlySet<VideoCodec>): string | undefined {
  const even = (n: number) => Number.isInteger(n) && n >= 16 && n <= 4096 && n % 2 === 0;
  if (!codecs.has(e.codec)) return `codec ${String(e.codec)} is not supported (this agent encodes ${[...codecs].join(', ')})`;
  if (!even(e.width) || !even(e.height)) return `size ${e.width}×${e.height} is not an even size within 16–4096`;
  if (!(e.frameRate > 0 && e.frameRate <= 60)) return `frame rate ${e.frameRate} is outside 0–60`;
  if (!(e.bitrateKbps >= 16 && e.bitrateKbps <= 50_000)) return `bitrate ${e.bitrateKbps} kbit/s is outside 16–50000`;
  return undefined;
}

/**
 * The ship's live streams: starts one encoder per shore `live.start` (from the camera's source,
 * camera-source.ts: a URL camera's session or ffmpeg, or another kind's own),
 * repackages its FLV into fragmented MP4 (flv-packager.ts: one fragment per frame the moment the
 * frame is encoded) and forwards each init segment and fragment as one binary agent-link frame
 * [BINARY_KIND.live][streamId][bytes],
 * and answers live.started (first byte), live.failed (with ffmpeg's stderr tail) and live.ended.
 * It works on whichever socket is attached; shore owns the stream ids and asks again after a
 * reconnect, so `detach()` (the socket closed) ends every stream here without a word. The API
 * (attach/detach/handle/stopAll/activeStreamIds) is the one ShipAgent wires.
 *
 * Uplink queue. Every second while streams run it reports `link.queue` (WebSocket bufferedAmount,
 * and that amount as milliseconds of the running streams' total bitrate) so shore can switch to a
 * lower definition when the link cannot carry the stream. The queue is also bounded here: past
 * max(minQueueBytes, maxQueueSeconds × bitrate), whole fragments (frames) are dropped, not bytes,
 * and forwarding resumes at the next keyframe once the queue is back under half the bound. Shore thus always receives a decodable stream,
 * with a gap in decode time where frames were dropped, and a link.queue report is sent the moment
 * dropping starts. The encoder itself is never paused: blocking its stdout would only make it
 * fall behind the camera, and memory stays bounded by the socket's queue plus one FLV tag.
 */
export class LiveStreams {
  private readonly streams = new Map<number, LiveStream>();
  /** Streams told to stop whose process has not exited yet. */
  private readonly stopping = new Set<LiveStream>();
  private timer: NodeJS.Timeout | undefined;
  private link: LiveLink | undefined;
  private readonly opts: Required<Omit<LiveStreamsOptions, 'codecs'>>;
  /** What this agent encodes (the hello's capabilities say so). */
  readonly codecs: ReadonlySet<VideoCodec>;
  private soundBytesSent = 0;

  constructor(
    private readonly sources: CameraSources,
    opts: LiveStreamsOptions = {},
  ) {
    this.opts = {
      firstByteTimeoutMs: opts.firstByteTimeoutMs ?? 15_000,
      reportEveryMs: opts.reportEveryMs ?? 1_000,
      maxQueueSeconds: opts.maxQueueSeconds ?? 8,
      minQueueBytes: opts.minQueueBytes ?? 1024 * 1024,
      ffmpegCommand: opts.ffmpegCommand ?? 'ffmpeg',
      stopGraceMs: opts.stopGraceMs ?? 2_000,
      output: opts.output ?? 'flv',
    };
    this.codecs = new Set(opts.codecs ?? ffmpegVideoCodecs(this.opts.ffmpegCommand));
  }

  /** Bytes of sound frames sent up the link by every live stream since the agent started. */
  get audioBytesSent(): number {
    return this.soundBytesSent;
  }

  /** The socket is up: streams may start and send. */
  attach(link: LiveLink): void {
    this.link = link;
  }

  /** The socket is gone: every stream ends without a word (shore asks again after reconnecting). */
  detach(): void {
    this.link = undefined;
    void this.stopAll();
  }

  /** Ids of the streams shore has running (starting or sending). */
  get activeStreamIds(): number[] {
    return [...this.streams.keys()];
  }

  /** Per stream: sending, and how many fragments the queue bound has dropped (diagnostics). */
  stats(): { streamId: number; cameraId: string; started: boolean; dropping: boolean; droppedFragments: number; audio: boolean; audioBytes: number }[] {
    return [...this.streams.values()].map((s) => ({
      streamId: s.id,
      cameraId: s.cameraId,
      started: s.started,
      dropping: s.dropping,
      droppedFragments: s.droppedFragments,
      audio: s.audio,
      audioBytes: s.audioBytes,
    }));
  }

  /** Encoder process ids, for diagnostics and tests. */
  pids(): number[] {
    return [...this.streams.values(), ...this.stopping].flatMap((s) => (s.encoder?.pid === undefined ? [] : [s.encoder.pid]));
  }

  handle(msg: ShoreStreamMessage): void {
    if (!this.link) return; // no socket to answer on; shore asks again after reconnecting
    if (msg.type === 'live.start') void this.start(msg.streamId, msg.cameraId, msg.encode, msg.audio === true);
    else this.stop(msg.streamId);
  }

  /** Ends every stream without reporting (the link is gone); resolves when every process has exited. */
  async stopAll(): Promise<void> {
    const all = [...this.streams.values(), ...this.stopping];
    this.streams.clear();
    this.updateTimer();
    for (const s of all) s.silent = true;
    await Promise.all(all.map((s) => s.encoder?.stop()));
  }

  /** The running streams' total bitrate in kbit/s (what the queue is measured against). */
  totalKbps(): number {
    let kbps = 0;
    for (const s of this.streams.values()) if (s.started) kbps += s.encode.bitrateKbps;
    return kbps;
  }

  /** The queue bound in bytes for the current streams. */
  queueLimitBytes(): number {
    return Math.max(this.opts.minQueueBytes, (this.opts.maxQueueSeconds * this.totalKbps() * 1000) / 8);
  }

  private async start(id: number, cameraId: string, encode: EncodeSpec, audio: boolean): Promise<void> {
    const previous = this.streams.get(id);
    if (previous) {
      // Shore restarted a stream id it still had: the new request replaces the old one.
      previous.silent = true;
      this.retire(previous);
    }
    const source = this.sources.get(cameraId);
    if (!source) return this.send({ type: 'live.failed', streamId: id, message: `unknown camera ${cameraId}` });
    const invalid = invalidEncode(encode, this.codecs);
    if (invalid) return this.send({ type: 'live.failed', streamId: id, message: `bad encoding request: ${invalid}` });

    const s: LiveStream = {
      id,
      cameraId,
      encode,
      encoder: undefined,
      reader: undefined,
      started: false,
      stopRequested: false,
      silent: false,
      error: undefined,
      dropping: false,
      droppedFragments: 0,
      audio,
      audioBytes: 0,
      ended: undefined,
    };
    this.streams.set(id, s);
    const wanted = () => this.streams.get(id) === s;
    // AV1 goes through ffmpeg's MP4 muxer (its FLV muxer has none): one picture later, no sound.
    const output: EncoderOutput = encode.codec === 'av1' ? 'fmp4' : this.opts.output;
    const ready = await source.startLive({
      encode,
      // Sound only through the FLV packager (ffmpeg's MP4 muxer would interleave it with the pictures).
      audio: audio && output === 'flv',
      output,
      ffmpegCommand: this.opts.ffmpegCommand,
      encoder: this.encoderCallbacks(s),
      onSound: (chunk) => this.receiveSound(s, chunk),
      wanted,
      fail: (reason) => {
        if (s.error !== undefined || s.silent || s.stopRequested) return;
        s.error = reason;
        this.retire(s);
      },
    });
    if (ready.kind === 'gone') return;
    if (ready.kind === 'failed') {
      if (!wanted()) return; // stopped or replaced meanwhile; already answered
      this.streams.delete(id);
      return this.send({ type: 'live.failed', streamId: id, message: failureMessage(ready.reason, ready.detail) });
    }
    if (!wanted()) return ready.ended?.();
    s.reader = ready.reader;
    s.ended = ready.ended;
    s.about = { ...(ready.cameraCodec ? { cameraCodec: ready.cameraCodec } : {}), ...(ready.transcoded !== undefined ? { transcoded: ready.transcoded } : {}) };
    s.encoder = ready.start();
  }

  /** What every stream's encoder (or session tap) reports to. */
  private encoderCallbacks(s: LiveStream): EncoderOptions {
    return {
      firstByteTimeoutMs: this.opts.firstByteTimeoutMs,
      stopGraceMs: this.opts.stopGraceMs,
      onRunning: () => {
        if (s.silent || s.stopRequested) return;
        s.started = true;
        this.send({ type: 'live.started', streamId: s.id, ...s.about });
        this.updateTimer();
      },
      onData: (chunk) => this.receive(s, chunk),
      onExit: (info) => this.exited(s, info),
    };
  }

  private stop(id: number): void {
    const s = this.streams.get(id);
    if (!s) {
      // Already gone (failed, or never started): say so, so shore's view converges.
      this.send({ type: 'live.ended', streamId: id, reason: 'not running' });
      return;
    }
    s.stopRequested = true;
    if (!s.encoder) {
      // Still probing its camera: nothing to stop yet.
      this.streams.delete(id);
      this.updateTimer();
      this.send({ type: 'live.ended', streamId: id, reason: 'stopped' });
      return;
    }
    this.retire(s);
  }

  /** Takes a stream out of service; its exit is reported (or not) by `exited`. */
  private retire(s: LiveStream): void {
    if (this.streams.get(s.id) === s) this.streams.delete(s.id);
    this.link?.discard?.(s.id);
    this.updateTimer();
    if (s.encoder) {
      this.stopping.add(s);
      void s.encoder.stop();
    }
  }

  private receive(s: LiveStream, chunk: Buffer): void {
    if (s.silent || s.stopRequested || s.error !== undefined) return;
    let units: Fmp4Unit[];
    try {
      units = s.reader?.push(chunk) ?? [];
    } catch (err) {
      s.error = `encoder output unreadable: ${(err as Error).message}`;
      this.retire(s);
      return;
    }
    for (const unit of units) this.forward(s, unit);
  }

  private forward(s: LiveStream, unit: Fmp4Unit): void {
    if (unit.kind === 'fragment') {
      const verdict = passFragment(s, unit.keyframe, this.buffered(), this.queueLimitBytes());
      if (verdict === 'startDropping') this.reportQueue();
      if (verdict !== 'send') return;
    }
    if (unit.kind === 'fragment' && unit.audioBytes) {
      s.audioBytes += unit.audioBytes;
      this.soundBytesSent += unit.audioBytes;
    }
    // Whole fragments are kept or dropped above; a big one goes up in slices under the frame limit.
    for (let at = 0; at < unit.bytes.length; at += LINK_FRAME_MAX_PAYLOAD) {
      this.link?.sendBinary(encodeStreamFrame(BINARY_KIND.live, s.id, unit.bytes.subarray(at, at + LINK_FRAME_MAX_PAYLOAD)));
    }
  }

  private receiveSound(s: LiveStream, chunk: Buffer): void {
    if (s.silent || s.stopRequested || s.error !== undefined) return;
    const reader = s.reader;
    if (!(reader instanceof FlvToFmp4)) return;
    let units: Fmp4Unit[];
    try {
      units = reader.pushAudio(chunk);
    } catch (err) {
      s.error = `encoder sound unreadable: ${(err as Error).message}`;
      this.retire(s);
      return;
    }
    for (const unit of units) this.forward(s, unit);
  }

  private exited(s: LiveStream, info: EncoderExit): void {
    s.ended?.();
    this.stopping.delete(s);
    if (this.streams.get(s.id) === s) this.streams.delete(s.id);
    this.updateTimer();
    if (s.silent) return;
    if (s.error !== undefined) {
      this.send({ type: 'live.failed', streamId: s.id, message: failureMessage(s.error) });
    } else if (info.state === 'ended') {
      this.send({ type: 'live.ended', streamId: s.id, reason: s.stopRequested ? 'stopped' : info.reason });
    } else {
      this.send({ type: 'live.failed', streamId: s.id, message: failureMessage(info.reason, info.stderrTail) });
    }
  }

  private send(msg: AgentStreamMessage): void {
    this.link?.sendJson(msg);
  }

  private buffered(): number {
    return this.link?.bufferedAmount() ?? 0;
  }

  private reportQueue(): void {
    const kbps = this.totalKbps();
    if (kbps === 0) return;
    const bufferedBytes = this.buffered();
    this.send({ type: 'link.queue', bufferedBytes, queuedMs: Math.round((bufferedBytes * 8) / kbps) });
  }

  private updateTimer(): void {
    const running = this.totalKbps() > 0;
    if (running && !this.timer) {
      this.timer = setInterval(() => this.reportQueue(), this.opts.reportEveryMs);
      this.timer.unref();
    } else if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
