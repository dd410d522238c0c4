import {
  type AgentStreamMessage,
  BINARY_KIND,
  type EncodeSpec,
  type ShoreStreamMessage,
  encodeStreamFrame,
  LINK_FRAME_MAX_PAYLOAD,
} from '@ship-cctv/protocol';
import { type CameraConfig, isSynthetic } from '../cameras.ts';
import { type CameraSession, type CameraSessions, startSessionTap } from './camera-session.ts';
import { type Encoder, type EncoderExit, type EncoderOptions, startEncoder } from './encoder.ts';
import {
  canCopy,
  type EncoderOutput,
  LIVE_SOUND,
  type InputProbe,
  type PtzStage,
  sessionTranscodeArgs,
  syntheticCameraArgs,
  urlCameraArgs,
  urlCameraFrameRate,
} from './ffmpeg-args.ts';
import { type Fmp4Source, FlvToFmp4 } from './flv-packager.ts';
import { Fmp4Reader, type Fmp4Unit } from './fmp4.ts';
import { fontsFor } from './fonts.ts';
import { probeInput } from './probe.ts';
import type { SpeakerFeeds, SpeakerPump } from './speaker-feed.ts';
import { passFragment } from '../uplink/keyframe-gate.ts';

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
  /** ffprobe of URL cameras (replaceable in tests). */
  probe?: (url: string) => Promise<InputProbe>;
  /** A good probe of a URL is reused this long (definition switches restart streams). Default 60 s. */
  probeCacheMs?: number;
  /** Fonts of the synthetic camera. Default: fonts.ts. */
  fonts?: (cameraName: string) => { fontFile: string | undefined; nameFontFile: string | undefined };
  /** Default "ffmpeg". */
  ffmpegCommand?: string;
  stopGraceMs?: number;
  /**
   * What the encoder writes: 'flv', repackaged here into the link's fragmented MP4 (default), or
   * 'fmp4', ffmpeg's own MP4 muxer, which holds every frame until the next one (for comparison).
   */
  output?: EncoderOutput;
  /**
   * The agent's camera sessions: a URL camera's live streams are fed from its one session (copied,
   * or transcoded from its pictures) — no probe, no second camera session. Absent, or a camera the
   * session cannot carry (H.265): each stream probes and reads the camera itself.
   */
  sessions?: CameraSessions;
  /**
   * The ship's speaker feeds (speaker-feed.ts): a synthetic camera's stream with sound mixes its
   * camera's feed in. Absent: its sound is the camera's own only.
   */
  speakerFeeds?: SpeakerFeeds;
  /**
   * The window of a synthetic PTZ camera (ptz/synthetic-ptz.ts): each of its streams draws the
   * larger scene and follows the camera's moves through its ffmpeg's zmq filter.
   */
  ptz?: (cameraId: string) => LivePtzWindows | undefined;
}

/** What a stream of a synthetic PTZ camera needs of it (SyntheticPtz.openLive). */
export interface LivePtzWindows {
  openLive(width: number, height: number): Promise<{ stage: PtzStage; attach(): Promise<void>; close(): void }>;
}

/** A stream of a camera session ends when the camera stays away this long (shorter: it resumes). */
const CAMERA_AWAY_MS = 20_000;

/** The reader that turns an encoder's output into the link's init segment and fragments. */
function readerFor(output: EncoderOutput, frameRate: number, encode: EncodeSpec, copied = false): Fmp4Source {
  // A copied camera's pictures may come as several packets (slices): joined into one sample each.
  return output === 'flv' ? new FlvToFmp4({ frameRate, width: encode.width, height: encode.height, joinSlices: copied, outputClock: Date.now }) : new Fmp4Reader();
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
  /** Writes the camera's speaker feed into the encoder while it runs. */
  speaker: SpeakerPump | undefined;
  /** A synthetic PTZ camera's window this stream follows; closed when the encoder exits. */
  ptz?: { attach(): Promise<void>; close(): void };
}

/** A failure message to shore: reason, then ffmpeg's last words; credentials in URLs blanked. */
const MAX_MESSAGE_CHARS = 2_400;
export function failureMessage(prefix: string, detail?: string): string {
  const text = detail ? `${prefix}: ${detail}` : prefix;
  const safe = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');
  return safe.length <= MAX_MESSAGE_CHARS ? safe : `${safe.slice(0, 200)} … ${safe.slice(-(MAX_MESSAGE_CHARS - 203))}`;
}

function invalidEncode(e: EncodeSpec): string | undefined {
  const even = (n: number) => Number.isInteger(n) && n >= 16 && n <= 4096 && n % 2 === 0;
  if (e.codec !== 'h264') return `codec ${String(e.codec)} is not supported (h264 only)`;
  if (!even(e.width) || !even(e.height)) return `size ${e.width}×${e.height} is not an even size within 16–4096`;
  if (!(e.frameRate > 0 && e.frameRate <= 60)) return `frame rate ${e.frameRate} is outside 0–60`;
  if (!(e.bitrateKbps >= 16 && e.bitrateKbps <= 50_000)) return `bitrate ${e.bitrateKbps} kbit/s is outside 16–50000`;
  return undefined;
}

/**
 * The ship's live streams: starts one encoder per shore `live.start` (synthetic or URL camera),
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
  private readonly cameras: Map<string, CameraConfig>;
  private readonly probes = new Map<string, { probe: InputProbe; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private link: LiveLink | undefined;
  private readonly opts: Required<Omit<LiveStreamsOptions, 'sessions' | 'speakerFeeds' | 'ptz'>>;
  private readonly ptz: LiveStreamsOptions['ptz'];
  private readonly sessions: CameraSessions | undefined;
  private readonly speakerFeeds: SpeakerFeeds | undefined;
  private soundBytesSent = 0;

  constructor(cameras: readonly CameraConfig[], opts: LiveStreamsOptions = {}) {
    this.cameras = new Map(cameras.map((c) => [c.cameraId, c]));
    this.opts = {
      firstByteTimeoutMs: opts.firstByteTimeoutMs ?? 15_000,
      reportEveryMs: opts.reportEveryMs ?? 1_000,
      maxQueueSeconds: opts.maxQueueSeconds ?? 8,
      minQueueBytes: opts.minQueueBytes ?? 1024 * 1024,
      probe: opts.probe ?? ((url) => probeInput(url)),
      probeCacheMs: opts.probeCacheMs ?? 60_000,
      fonts: opts.fonts ?? fontsFor,
      ffmpegCommand: opts.ffmpegCommand ?? 'ffmpeg',
      stopGraceMs: opts.stopGraceMs ?? 2_000,
      output: opts.output ?? 'flv',
    };
    this.sessions = opts.sessions;
    this.ptz = opts.ptz;
    this.speakerFeeds = opts.speakerFeeds;
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
    const camera = this.cameras.get(cameraId);
    if (!camera) return this.send({ type: 'live.failed', streamId: id, message: `unknown camera ${cameraId}` });
    const invalid = invalidEncode(encode);
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
      speaker: undefined,
    };
    this.streams.set(id, s);

    let args: string[];
    if (isSynthetic(camera)) {
      const cameraName = camera.name ?? camera.cameraId;
      const windows = this.ptz?.(cameraId);
      const window = windows ? await windows.openLive(encode.width, encode.height) : undefined;
      if (this.streams.get(id) !== s) return window?.close();
      s.ptz = window;
      // Sound only through the FLV packager (ffmpeg's MP4 muxer would interleave it with the pictures).
      const sound = audio && this.opts.output === 'flv';
      const speakerInput = sound && this.speakerFeeds !== undefined;
      args = syntheticCameraArgs({
        cameraName,
        encode,
        realtime: true,
        output: this.opts.output,
        ...this.opts.fonts(cameraName),
        ...(sound ? { audio: { spec: LIVE_SOUND, speakerInput } } : {}),
        ...(window ? { ptz: window.stage } : {}),
      });
      if (sound) {
        const reader = new FlvToFmp4({ frameRate: encode.frameRate, width: encode.width, height: encode.height, audio: LIVE_SOUND, outputClock: Date.now });
        s.reader = reader;
        s.encoder = startEncoder(args, {
          ...this.encoderCallbacks(s),
          command: this.opts.ffmpegCommand,
          onSound: (chunk) => this.receiveSound(s, reader, chunk),
          speakerInput,
        });
        const encoder = s.encoder;
        if (speakerInput) s.speaker = this.speakerFeeds?.get(cameraId).pump((chunk) => encoder.writeSpeaker(chunk));
        void s.ptz?.attach();
        return;
      }
      s.reader = readerFor(this.opts.output, encode.frameRate, encode);
    } else {
      // URL cameras are carried video only (their sessions read the picture alone).
      const session = this.sessions?.get(camera.source);
      if (session && !session.unsupported && (await this.startFromSession(s, session)) === 'started') return;
      if (this.streams.get(id) !== s) return;
      let probe: InputProbe;
      try {
        probe = await this.probe(camera.source);
      } catch (err) {
        if (this.streams.get(id) !== s) return; // stopped or replaced while probing; already answered
        this.streams.delete(id);
        return this.send({ type: 'live.failed', streamId: id, message: failureMessage(`camera ${cameraId} did not answer`, (err as Error).message) });
      }
      if (this.streams.get(id) !== s) return;
      args = urlCameraArgs({ url: camera.source, encode, probe, output: this.opts.output });
      s.reader = readerFor(this.opts.output, urlCameraFrameRate({ encode, probe }), encode, canCopy(probe, encode));
    }

    s.encoder = startEncoder(args, { ...this.encoderCallbacks(s), command: this.opts.ffmpegCommand });
    void s.ptz?.attach();
  }

  /** What every stream's encoder (or session tap) reports to. */
  private encoderCallbacks(s: LiveStream): EncoderOptions {
    return {
      firstByteTimeoutMs: this.opts.firstByteTimeoutMs,
      stopGraceMs: this.opts.stopGraceMs,
      onRunning: () => {
        if (s.silent || s.stopRequested) return;
        s.started = true;
        this.send({ type: 'live.started', streamId: s.id });
        this.updateTimer();
      },
      onData: (chunk) => this.receive(s, chunk),
      onExit: (info) => this.exited(s, info),
    };
  }

  /**
   * A URL camera's stream from its session: copied when the session's pictures fit the template,
   * else transcoded from them. 'fallback' when the session cannot carry the camera (then the
   * stream reads the camera itself); 'started' when the stream started or was answered.
   */
  private async startFromSession(s: LiveStream, session: CameraSession): Promise<'started' | 'fallback'> {
    // Held while waiting, so the session opens (or stays open) for this stream.
    const hold = session.subscribe(() => undefined);
    try {
      let info: InputProbe;
      try {
        info = await session.ready(this.opts.firstByteTimeoutMs);
      } catch (err) {
        if (session.unsupported) return 'fallback';
        if (this.streams.get(s.id) !== s) return 'started';
        this.streams.delete(s.id);
        this.send({ type: 'live.failed', streamId: s.id, message: failureMessage(`camera ${s.cameraId} did not answer`, (err as Error).message) });
        return 'started';
      }
      if (this.streams.get(s.id) !== s) return 'started';
      const { encode } = s;
      if (canCopy(info, encode)) {
        // The session's pictures are whole already: no joining here.
        s.reader = new FlvToFmp4({ frameRate: info.frameRate ?? encode.frameRate, width: encode.width, height: encode.height, outputClock: Date.now });
        s.encoder = startSessionTap(session, { ...this.encoderCallbacks(s), resumeWithinMs: CAMERA_AWAY_MS });
      } else {
        s.reader = readerFor(this.opts.output, encode.frameRate, encode);
        const encoder = startEncoder(sessionTranscodeArgs(encode, this.opts.output, info.frameRate), { ...this.encoderCallbacks(s), command: this.opts.ffmpegCommand, stdin: true });
        // A camera that stays away ends the stream (as the copied one does, startSessionTap).
        let away: NodeJS.Timeout | undefined;
        const unsubscribe = session.subscribeFlv(
          (chunk) => encoder.write(chunk),
          (e) => {
            if (e.kind === 'picture') {
              clearTimeout(away);
              away = undefined;
            } else if (e.kind === 'down' && !away) {
              away = setTimeout(() => {
                if (s.error !== undefined || s.silent || s.stopRequested) return;
                s.error = `camera stream ended: ${e.reason}`;
                this.retire(s);
              }, CAMERA_AWAY_MS);
            }
          },
          { squeezeReplay: true },
        );
        void encoder.exited.then(() => {
          clearTimeout(away);
          unsubscribe();
        });
        s.encoder = encoder;
      }
      return 'started';
    } finally {
      hold();
    }
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

  private receiveSound(s: LiveStream, reader: FlvToFmp4, chunk: Buffer): void {
    if (s.silent || s.stopRequested || s.error !== undefined) return;
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
    s.speaker?.stop();
    s.ptz?.close();
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

  private async probe(url: string): Promise<InputProbe> {
    const cached = this.probes.get(url);
    if (cached && Date.now() - cached.at < this.opts.probeCacheMs) return cached.probe;
    const probe = await this.opts.probe(url);
    this.probes.set(url, { probe, at: Date.now() });
    return probe;
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
