import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  type AgentPlaybackMessage,
  BINARY_KIND,
  type EncodeSpec,
  PLAYBACK_SPEEDS,
  type PlaybackSpeed,
  type RecordedSpan,
  type ShorePlaybackMessage,
  encodeStreamFrame,
  LINK_FRAME_MAX_PAYLOAD,
} from '@ship-cctv/protocol';
import { type Encoder, type EncoderExit, startEncoder } from '../media/encoder.ts';
import type { InputProbe } from '../media/ffmpeg-args.ts';
import { type Fmp4Unit, Fmp4Reader } from '../media/fmp4.ts';
import { failureMessage } from '../media/live-streams.ts';
import { probeInput } from '../media/probe.ts';
import type { CameraRecording } from '../camera-source.ts';
import type { ShipRecorder } from '../recorder/ship-recorder.ts';
import { type TrackClock, fragmentStart, shiftFragment, trackClock } from './fragment-time.ts';
import { playbackPace } from './playback-args.ts';
import { passFragment } from '../uplink/keyframe-gate.ts';

/** The agent link as playback sees it (the same socket live streams use). */
export interface PlaybackLink {
  sendJson(msg: AgentPlaybackMessage): void;
  sendBinary(frame: Uint8Array): void;
  /** Bytes accepted but not yet sent (WebSocket.bufferedAmount). */
  bufferedAmount(): number;
  /** Forgets the stream's frames not yet sent (it stopped): they would cross the link for nothing. */
  discard?(streamId: number): void;
}

export interface PlaybackStreamsOptions {
  /** A run that sends nothing this long after its start fails. Default 15 s. */
  firstByteTimeoutMs?: number;
  /** How often `playback.position` is sent. Default 1 s. */
  positionEveryMs?: number;
  /**
   * The uplink queue bound in bytes (live and playback share one socket): past it whole fragments
   * are dropped until a keyframe finds the queue under half. Default: max(1 MiB, 8 s of the
   * running playbacks' bitrate); ShipAgent adds its live streams.
   */
  queueLimitBytes?: (playbackKbps: number) => number;
  /** ffprobe of a recorded segment (copy or transcode). Default probe.ts. */
  probe?: (path: string) => Promise<InputProbe>;
  /** The most media bytes in one link frame; larger fragments go as slices. Default MAX_FRAME_PAYLOAD_BYTES. */
  maxFramePayloadBytes?: number;
  /** Where concat lists of recorded segments are written while they play. Default the OS temp dir. */
  tmpDir?: string;
  ffmpegCommand?: string;
  stopGraceMs?: number;
}

/** One ffmpeg run: one recorded span (or the rest of it after a resume) of a playback. */
interface Run {
  encoder: Encoder | undefined;
  reader: Fmp4Reader;
  /** Recorded time of the run's media time 0, and where the run stops. */
  from: number;
  to: number;
  /** Where the run's media time 0 lands in the playback's played time (seconds). */
  playedAt: number;
  timescale: number;
  /** The tracks' clocks, from the run's init segment. */
  clock: TrackClock | undefined;
  /** Last fragment's own decode start and the step between fragments, in the run's ticks. */
  lastTicks: number | undefined;
  stepTicks: number | undefined;
  /** Played time (s) and recorded time (ms) just after the last fragment forwarded: where a resume picks up. */
  forwardedUntil: number | undefined;
  resumeFrom: number | undefined;
  /** Stopped on our side (pause, stop, replaced): its exit says nothing. */
  retired: boolean;
  listFile: string | undefined;
  error: string | undefined;
}

interface Playback {
  id: number;
  cameraId: string;
  encode: EncodeSpec;
  speed: PlaybackSpeed;
  end: number;
  recording: CameraRecording;
  /** Recorded time the next run starts from. */
  cursor: number;
  /** Played time (s) the next run starts at. */
  played: number;
  run: Run | undefined;
  /** Init segment sent (later runs send theirs only when it differs). */
  init: Buffer | undefined;
  started: boolean;
  paused: boolean;
  /** Recorded time of the last fragment forwarded: what `playback.position` reports. */
  position: number | undefined;
  positionSent: number | undefined;
  dropping: boolean;
  droppedFragments: number;
  bytes: number;
}

export interface PlaybackStats {
  streamId: number;
  cameraId: string;
  speed: PlaybackSpeed;
  paused: boolean;
  position: number | undefined;
  /** Bytes of media sent up the link (payloads, without frame headers). */
  bytes: number;
  droppedFragments: number;
}

function invalidEncode(e: EncodeSpec): string | undefined {
  const even = (n: number) => Number.isInteger(n) && n >= 16 && n <= 4096 && n % 2 === 0;
  if (e?.codec !== 'h264') return `codec ${String(e?.codec)} is not supported (h264 only)`;
  if (!even(e.width) || !even(e.height)) return `size ${e.width}×${e.height} is not an even size within 16–4096`;
  if (!(e.frameRate > 0 && e.frameRate <= 60)) return `frame rate ${e.frameRate} is outside 0–60`;
  if (!(e.bitrateKbps >= 16 && e.bitrateKbps <= 50_000)) return `bitrate ${e.bitrateKbps} kbit/s is outside 16–50000`;
  return undefined;
}

/** A span shorter than this is not worth an ffmpeg run (it is skipped like a gap). */
const MIN_RUN_MS = 200;

/** The most media bytes in one link frame (protocol LINK_FRAME_MAX_PAYLOAD); tests set smaller. */
export const MAX_FRAME_PAYLOAD_BYTES = LINK_FRAME_MAX_PAYLOAD;

/**
 * Ship playback over the agent link: for each `playback.start` it plays the ship recorder's
 * recording of [from, end) at the asked speed as binary frames [BINARY_KIND.playback][streamId]
 * [fragmented MP4], init first, paced in played time — one ffmpeg run per recorded span, gaps
 * skipped, the runs stitched into one media timeline (fragment-time.ts). `playback.position`
 * reports the recorded time being sent about once a second; `playback.ended` follows the last
 * frame before `end`; `playback.failed` says `noRecording` when [from, end) holds no span and
 * `playbackFailed` when ffmpeg fails. Pause stops the run (nothing is sent, no process waits) and
 * resume starts a new run where the last sent frame left off; seek and speed changes come as stop +
 * start. A full uplink drops whole fragments as live does and resumes at a keyframe.
 */
export class PlaybackStreams {
  private readonly streams = new Map<number, Playback>();
  private readonly stopping = new Set<Encoder>();
  private link: PlaybackLink | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly opts: Required<PlaybackStreamsOptions>;

  constructor(
    private readonly recorder: ShipRecorder,
    opts: PlaybackStreamsOptions = {},
  ) {
    this.opts = {
      firstByteTimeoutMs: opts.firstByteTimeoutMs ?? 15_000,
      positionEveryMs: opts.positionEveryMs ?? 1_000,
      queueLimitBytes: opts.queueLimitBytes ?? ((kbps) => Math.max(1024 * 1024, (8 * kbps * 1000) / 8)),
      probe: opts.probe ?? ((path) => probeInput(path)),
      maxFramePayloadBytes: opts.maxFramePayloadBytes ?? MAX_FRAME_PAYLOAD_BYTES,
      tmpDir: opts.tmpDir ?? tmpdir(),
      ffmpegCommand: opts.ffmpegCommand ?? 'ffmpeg',
      stopGraceMs: opts.stopGraceMs ?? 2_000,
    };
  }

  attach(link: PlaybackLink): void {
    this.link = link;
  }

  /** The socket is gone: every playback ends without a word (shore starts again if it still wants it). */
  detach(): void {
    this.link = undefined;
    void this.stopAll();
  }

  get activeStreamIds(): number[] {
    return [...this.streams.keys()];
  }

  /** Bitrate of the playbacks sending now (kbit/s), for the uplink queue bound. */
  totalKbps(): number {
    let kbps = 0;
    for (const p of this.streams.values()) if (p.run && !p.paused) kbps += playbackPace(p.encode, p.speed).bitrateKbps;
    return kbps;
  }

  stats(): PlaybackStats[] {
    return [...this.streams.values()].map((p) => ({
      streamId: p.id,
      cameraId: p.cameraId,
      speed: p.speed,
      paused: p.paused,
      position: p.position,
      bytes: p.bytes,
      droppedFragments: p.droppedFragments,
    }));
  }

  /** ffmpeg process ids (diagnostics, tests). */
  pids(): number[] {
    const pids = [...this.streams.values()].flatMap((p) => (p.run?.encoder?.pid === undefined ? [] : [p.run.encoder.pid]));
    for (const e of this.stopping) if (e.pid !== undefined) pids.push(e.pid);
    return pids;
  }

  handle(msg: Exclude<ShorePlaybackMessage, { type: 'vod.query' }>): void {
    if (!this.link) return;
    switch (msg.type) {
      case 'playback.start':
        return this.start(msg);
      case 'playback.pause':
        return this.pause(msg.streamId);
      case 'playback.resume':
        return this.resume(msg.streamId);
      case 'playback.stop':
        return this.stop(msg.streamId);
    }
  }

  /** Ends every playback without reporting; resolves when every process has exited. */
  async stopAll(): Promise<void> {
    const all = [...this.streams.values()];
    this.streams.clear();
    this.updateTimer();
    for (const p of all) this.retireRun(p);
    await Promise.all([...this.stopping].map((e) => e.exited));
  }

  private start(msg: Extract<ShorePlaybackMessage, { type: 'playback.start' }>): void {
    const { streamId: id, cameraId, encode, start, end, speed } = msg;
    const previous = this.streams.get(id);
    if (previous) {
      this.streams.delete(id);
      this.retireRun(previous);
    }
    const failed = (message: string) => this.send({ type: 'playback.failed', streamId: id, code: 'playbackFailed', message });
    if (!PLAYBACK_SPEEDS.includes(speed)) return failed(`bad playback request: speed ${String(speed)} is not one of ${PLAYBACK_SPEEDS.join(', ')}`);
    const invalid = invalidEncode(encode);
    if (invalid) return failed(`bad encoding request: ${invalid}`);
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return failed(`bad time range ${start}–${end}: the end must come after the start`);
    const recording = this.recorder.recording(cameraId);
    if (!recording) return failed(`camera ${cameraId} is not recorded on this ship`);
    const from = Math.min(Math.max(Number.isFinite(msg.from) ? msg.from : start, start), end);
    const p: Playback = {
      id,
      cameraId,
      encode,
      speed,
      end,
      recording,
      cursor: from,
      played: 0,
      run: undefined,
      init: undefined,
      started: false,
      paused: false,
      position: undefined,
      positionSent: undefined,
      dropping: false,
      droppedFragments: 0,
      bytes: 0,
    };
    if (!this.nextSpan(p)) {
      return this.send({ type: 'playback.failed', streamId: id, code: 'noRecording', message: `no recording of ${cameraId} between ${new Date(from).toISOString()} and ${new Date(end).toISOString()}` });
    }
    this.streams.set(id, p);
    void this.launch(p);
  }

  private pause(id: number): void {
    const p = this.streams.get(id);
    if (!p || p.paused) return;
    p.paused = true;
    const run = p.run;
    if (run) {
      // Carry on later exactly after the last frame the player got.
      if (run.forwardedUntil !== undefined && run.resumeFrom !== undefined) {
        p.played = run.forwardedUntil;
        p.cursor = run.resumeFrom;
      }
      this.retireRun(p);
    }
    this.updateTimer();
  }

  private resume(id: number): void {
    const p = this.streams.get(id);
    if (!p || !p.paused) return;
    p.paused = false;
    void this.launch(p);
  }

  private stop(id: number): void {
    const p = this.streams.get(id);
    if (!p) return;
    this.streams.delete(id);
    this.retireRun(p);
    this.link?.discard?.(id);
    this.updateTimer();
  }

  /** The first recorded span at or after the cursor, clipped to [cursor, end); undefined when none is left. */
  private nextSpan(p: Playback): RecordedSpan | undefined {
    const spans = this.recorder.spans(p.cameraId, p.cursor, p.end) ?? [];
    return spans.find((s) => s.end - s.start >= MIN_RUN_MS);
  }

  /** Starts the run for the next recorded span, or ends the playback when none is left. */
  private async launch(p: Playback): Promise<void> {
    if (this.streams.get(p.id) !== p || p.paused || p.run) return;
    const span = this.nextSpan(p);
    if (!span) {
      this.streams.delete(p.id);
      this.updateTimer();
      this.sendPosition(p);
      return this.send({ type: 'playback.ended', streamId: p.id });
    }
    const run: Run = {
      encoder: undefined,
      reader: new Fmp4Reader(),
      from: span.start,
      to: span.end,
      playedAt: p.played,
      timescale: 0,
      clock: undefined,
      lastTicks: undefined,
      stepTicks: undefined,
      forwardedUntil: undefined,
      resumeFrom: undefined,
      retired: false,
      listFile: undefined,
      error: undefined,
    };
    p.run = run;
    this.updateTimer();
    let args: string[];
    try {
      args = await this.argsFor(p, run);
    } catch (err) {
      if (run.retired) return;
      p.run = undefined;
      this.streams.delete(p.id);
      this.updateTimer();
      return this.send({ type: 'playback.failed', streamId: p.id, code: 'playbackFailed', message: failureMessage('playback could not start', (err as Error).message) });
    }
    if (run.retired) {
      if (run.listFile) rmSync(run.listFile, { force: true });
      return;
    }
    run.encoder = startEncoder(args, {
      command: this.opts.ffmpegCommand,
      firstByteTimeoutMs: this.opts.firstByteTimeoutMs,
      stopGraceMs: this.opts.stopGraceMs,
      onRunning: () => {
        if (run.retired || p.started) return;
        p.started = true;
        this.send({ type: 'playback.started', streamId: p.id });
      },
      onData: (chunk) => this.receive(p, run, chunk),
      onExit: (info) => this.exited(p, run, info),
    });
  }

  private async argsFor(p: Playback, run: Run): Promise<string[]> {
    const made = await p.recording.playbackRun({ from: run.from, to: run.to, encode: p.encode, speed: p.speed, tmpDir: this.opts.tmpDir, probe: this.opts.probe });
    run.from = made.from;
    run.listFile = made.tempFile;
    return made.args;
  }

  private receive(p: Playback, run: Run, chunk: Buffer): void {
    if (run.retired || run.error !== undefined) return;
    let units: Fmp4Unit[];
    try {
      units = run.reader.push(chunk);
      for (const unit of units) this.forward(p, run, unit);
    } catch (err) {
      run.error = `playback output unreadable: ${(err as Error).message}`;
      void run.encoder?.stop();
    }
  }

  private forward(p: Playback, run: Run, unit: Fmp4Unit): void {
    if (unit.kind === 'init') {
      const clock = trackClock(unit.bytes);
      if (!clock) throw new Error('init segment without a video timescale');
      run.clock = clock;
      run.timescale = clock.timescale;
      if (!p.init || !p.init.equals(unit.bytes)) {
        p.init = unit.bytes;
        this.sendMedia(p, unit.bytes);
      }
      return;
    }
    if (!run.timescale || !run.clock) throw new Error('fragment before the init segment');
    const own = fragmentStart(unit.bytes, run.clock);
    if (own === undefined) throw new Error('fragment without a decode time');
    if (run.lastTicks !== undefined && own > run.lastTicks) run.stepTicks = own - run.lastTicks;
    run.lastTicks = own;
    const ownSeconds = own / run.timescale;
    shiftFragment(unit.bytes, Math.round(run.playedAt * run.timescale) / run.timescale, run.clock);

    if (passFragment(p, unit.keyframe, this.link?.bufferedAmount() ?? 0, this.opts.queueLimitBytes(this.totalKbps())) !== 'send') return;
    this.sendMedia(p, unit.bytes);
    const step = (run.stepTicks ?? run.timescale / playbackPace(p.encode, p.speed).frameRate) / run.timescale;
    run.forwardedUntil = run.playedAt + ownSeconds + step;
    run.resumeFrom = Math.min(run.to, Math.round(run.from + (ownSeconds + step) * 1000 * p.speed));
    p.position = Math.min(run.to, Math.round(run.from + ownSeconds * 1000 * p.speed));
    if (p.positionSent === undefined) this.sendPosition(p);
  }

  private exited(p: Playback, run: Run, info: EncoderExit): void {
    if (run.listFile) rmSync(run.listFile, { force: true });
    if (run.encoder) this.stopping.delete(run.encoder);
    if (run.retired) return;
    if (p.run === run) p.run = undefined;
    if (this.streams.get(p.id) !== p) return;
    if (run.error !== undefined || info.state === 'failed') {
      this.streams.delete(p.id);
      this.updateTimer();
      const message = run.error ?? failureMessage(`playback ${info.reason}`, info.stderrTail);
      return this.send({ type: 'playback.failed', streamId: p.id, code: 'playbackFailed', message });
    }
    // The span is done: the next one continues the played timeline right after this run's last frame.
    if (run.lastTicks !== undefined) {
      const step = run.stepTicks ?? run.timescale / playbackPace(p.encode, p.speed).frameRate;
      p.played = run.playedAt + (run.lastTicks + step) / run.timescale;
    }
    p.cursor = Math.max(p.cursor, run.to);
    void this.launch(p);
  }

  /** Stops a playback's current run; its exit is ignored. */
  private retireRun(p: Playback): void {
    const run = p.run;
    p.run = undefined;
    if (!run) return;
    run.retired = true;
    if (run.encoder) {
      this.stopping.add(run.encoder);
      void run.encoder.stop();
    }
  }

  /** One init segment or fragment, whole: every slice of it is queued at once (never half a fragment). */
  private sendMedia(p: Playback, bytes: Buffer): void {
    p.bytes += bytes.length;
    const max = this.opts.maxFramePayloadBytes;
    for (let at = 0; at < bytes.length; at += max) {
      this.link?.sendBinary(encodeStreamFrame(BINARY_KIND.playback, p.id, bytes.subarray(at, at + max)));
    }
  }

  private sendPosition(p: Playback): void {
    if (p.position === undefined || p.position === p.positionSent) return;
    p.positionSent = p.position;
    this.send({ type: 'playback.position', streamId: p.id, time: p.position });
  }

  private send(msg: AgentPlaybackMessage): void {
    this.link?.sendJson(msg);
  }

  private updateTimer(): void {
    const running = [...this.streams.values()].some((p) => p.run && !p.paused);
    if (running && !this.timer) {
      this.timer = setInterval(() => {
        for (const p of this.streams.values()) if (!p.paused) this.sendPosition(p);
      }, this.opts.positionEveryMs);
      this.timer.unref();
    } else if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
