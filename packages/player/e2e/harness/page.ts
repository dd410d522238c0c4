/**
 * The test page's script, bundled by the harness with esbuild. It runs the real MsePlayer (or the
 * FramePlayer) on the page's <video> and records what the specs look at: states, errors, stats once a second, and the
 * capture-to-screen latency read off the clock strip the encoder burns into every frame.
 */
import { PATHS } from '@ship-cctv/protocol';
import { MsePlayer } from '../../src/index.ts';
import { FramePlayer } from '../../src/frames/index.ts';
import type { CodecInfo, PlayerError, PlayerState, PlayerStats } from '../../src/index.ts';
import { HARNESS_TOKEN } from './constants.ts';
import { CLOCK_BITS, CLOCK_STRIP } from './encoder.ts';

export interface StartOptions {
  cameraId: string;
  /** Default: the harness token; null sends none. */
  token?: string | null;
  liveLatencyTargetMs?: number;
  startupTimeoutMs?: number;
  /** The stream's sound to the element (MsePlayer.setSound); default picture only. */
  sound?: boolean;
  /** Which player: MsePlayer (default) or the FramePlayer (WebCodecs). */
  player?: 'mse' | 'frames';
}

export interface Sample {
  /** ms since the first frame. */
  at: number;
  latencyMs: number | undefined;
  captureLatencyMs: number | undefined;
  currentTime: number;
  totalFrames: number;
  fps: number;
  bitrateKbps: number;
  playbackRate: number;
  state: PlayerState;
  /**
   * The longest time, within the 10 s before this sample, in which no media reached the page (a
   * stalled encoder, harness or browser): latency the player met rather than made.
   */
  arrivalGapMs: number;
}

export interface Snapshot {
  state: PlayerState;
  stats: PlayerStats;
  currentTime: number;
  totalFrames: number;
  videoWidth: number;
  videoHeight: number;
  errors: PlayerError[];
  states: Array<{ state: PlayerState; at: number }>;
  codecs: Array<Pick<CodecInfo, 'mime' | 'width' | 'height'>>;
  samples: Sample[];
  /** Capture-to-screen latency of every frame shown, ms. */
  captureLatencies: number[];
  /** Frames shown whose capture time is before the one shown before them: the picture stepped back. */
  backwardSteps: number;
  /** 'waiting' events of the video: playback ran out of data (a stutter at the live edge). */
  waitingEvents: number;
  /** Bytes of sound and of picture Chromium has decoded (its webkit*DecodedByteCount). */
  audioDecodedBytes: number;
  videoDecodedBytes: number;
}

export interface HarnessApi {
  start(options: StartOptions): void;
  stop(): void;
  snapshot(): Snapshot;
}

declare global {
  interface Window {
    harness: HarnessApi;
  }
}

const found = document.querySelector('video');
if (!found) throw new Error('no <video> on the page');
const video: HTMLVideoElement = found;

let player: MsePlayer | FramePlayer | undefined;
let record = fresh();

// ── media arrivals ──────────────────────────────────────────────────────────────────────────────

/** How far back a sample looks for a gap in what reached the page. */
const GAP_WINDOW_MS = 10_000;

/** The players' own sockets, noting when media reaches the page. */
window.WebSocket = class extends WebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    this.addEventListener('message', (e: MessageEvent) => {
      if (typeof e.data !== 'string') record.arrivals.push(performance.now());
    });
  }
};

/** The longest stretch without media in the window before `now` (to `now` itself), from the stream's first media. */
function longestArrivalGap(arrivals: readonly number[], now: number): number {
  if (arrivals.length === 0) return 0;
  let longest = 0;
  let previous = Math.max(now - GAP_WINDOW_MS, arrivals[0]!);
  for (const at of arrivals) {
    if (at <= previous) continue;
    longest = Math.max(longest, at - previous);
    previous = at;
  }
  return Math.round(Math.max(longest, now - previous));
}

function fresh() {
  return {
    errors: [] as PlayerError[],
    states: [] as Snapshot['states'],
    codecs: [] as Snapshot['codecs'],
    samples: [] as Sample[],
    captureLatencies: [] as number[],
    /** When each binary message (init segment or fragment) reached the page, ms (performance.now()). */
    arrivals: [] as number[],
    waitingEvents: 0,
    lastCaptureLatency: undefined as number | undefined,
    lastStamp: undefined as number | undefined,
    backwardSteps: 0,
    sampler: undefined as ReturnType<typeof setInterval> | undefined,
  };
}

// ── capture clock ───────────────────────────────────────────────────────────────────────────────

const canvas = document.createElement('canvas');
const ctx = canvas.getContext('2d', { willReadFrequently: true });

/** The capture time (ms mod 2^24) drawn into the frame now on the video, one block per bit. */
function readClock(v: HTMLVideoElement): number | undefined {
  const width = v.videoWidth;
  const height = Math.round(v.videoHeight * CLOCK_STRIP);
  if (!ctx || !width || !height) return undefined;
  canvas.width = width;
  canvas.height = height;
  ctx.drawImage(v, 0, 0, width, height, 0, 0, width, height);
  const data = ctx.getImageData(0, Math.floor(height / 2), width, 1).data;
  let stamp = 0;
  for (let bit = 0; bit < CLOCK_BITS; bit++) {
    const x = Math.floor(((bit + 0.5) * width) / CLOCK_BITS);
    const luma = ((data[x * 4] ?? 0) + (data[x * 4 + 1] ?? 0) + (data[x * 4 + 2] ?? 0)) / 3;
    if (luma > 128) stamp += 2 ** bit;
  }
  return stamp;
}

/** On every composited frame: its expected display time minus the capture time it carries. */
function watchFrames(v: HTMLVideoElement, current: ReturnType<typeof fresh>): void {
  v.requestVideoFrameCallback((_now, meta) => {
    if (record !== current) return;
    const stamp = readClock(v);
    if (stamp !== undefined) {
      const shownAt = Math.round(performance.timeOrigin + meta.expectedDisplayTime);
      const latency = (((shownAt - stamp) % 2 ** 24) + 2 ** 24) % 2 ** 24;
      // A misread strip gives a wild value; real ones are well under 10 s.
      if (latency < 10_000) {
        current.lastCaptureLatency = latency;
        current.captureLatencies.push(latency);
        // An earlier capture than the frame before (within the clock's wrap): shown out of order.
        const before = current.lastStamp;
        if (before !== undefined && stamp < before && before - stamp < 2 ** 23) current.backwardSteps++;
        current.lastStamp = stamp;
      }
    }
    watchFrames(v, current);
  });
}

// ── API for the specs ───────────────────────────────────────────────────────────────────────────

function start(options: StartOptions): void {
  stop();
  const current = (record = fresh());
  const settings = {
    url: PATHS.media,
    token: options.token === null ? undefined : (options.token ?? HARNESS_TOKEN),
    reconnect: { minMs: 250, maxMs: 4000 },
    liveLatencyTargetMs: options.liveLatencyTargetMs,
    startupTimeoutMs: options.startupTimeoutMs,
    captureLatencyProbe: () => current.lastCaptureLatency,
  };
  const p = options.player === 'frames' ? new FramePlayer(video, settings) : new MsePlayer(video, settings);
  player = p;
  p.on('state', ({ state }) => current.states.push({ state, at: performance.now() }));
  p.on('error', (error) => current.errors.push({ kind: error.kind, message: error.message, ...(error.code ? { code: error.code } : {}) }));
  p.on('codec', ({ mime, width, height }) => current.codecs.push({ mime, width, height }));
  p.on('firstFrame', () => {
    const t0 = performance.now();
    current.sampler = setInterval(() => {
      const stats = p.stats;
      current.samples.push({
        at: Math.round(performance.now() - t0),
        latencyMs: stats.latencyMs,
        captureLatencyMs: stats.captureLatencyMs,
        currentTime: video.currentTime,
        totalFrames: video.getVideoPlaybackQuality().totalVideoFrames,
        fps: stats.fps,
        bitrateKbps: stats.bitrateKbps,
        playbackRate: stats.playbackRate,
        state: p.state,
        arrivalGapMs: longestArrivalGap(current.arrivals, performance.now()),
      });
    }, 1000);
  });
  watchFrames(video, current);
  if (options.sound) p.setSound(true);
  p.play({ type: 'play', mode: 'live', cameraId: options.cameraId, templateId: 6 });
}

function stop(): void {
  clearInterval(record.sampler);
  player?.destroy();
  player = undefined;
}

function snapshot(): Snapshot {
  return {
    state: player?.state ?? 'idle',
    stats: player?.stats ?? ({} as PlayerStats),
    currentTime: video.currentTime,
    totalFrames: video.getVideoPlaybackQuality().totalVideoFrames,
    videoWidth: video.videoWidth,
    videoHeight: video.videoHeight,
    errors: record.errors,
    states: record.states,
    codecs: record.codecs,
    samples: record.samples,
    captureLatencies: record.captureLatencies,
    backwardSteps: record.backwardSteps,
    waitingEvents: record.waitingEvents,
    audioDecodedBytes: (video as DecodedCounts).webkitAudioDecodedByteCount ?? 0,
    videoDecodedBytes: (video as DecodedCounts).webkitVideoDecodedByteCount ?? 0,
  };
}

/** Chromium's decode counters (not in the DOM typings). */
type DecodedCounts = HTMLVideoElement & { webkitAudioDecodedByteCount?: number; webkitVideoDecodedByteCount?: number };

video.addEventListener('waiting', () => record.waitingEvents++);

window.harness = { start, stop, snapshot };
