/// <reference lib="dom" />
/**
 * The page of live-video.bench.ts's glass-to-glass part, bundled with esbuild. It plays one camera
 * with one player per requested setting (each on its own <video>): the product's MsePlayer or
 * FramePlayer, or the WebRTC peer (janus-viewer.ts: Janus, fed by the same RTSP camera), and on every presented frame
 * (requestVideoFrameCallback) draws the video to a canvas at its own size, reads the capture code
 * (packages/protocol/src/capture-code.ts) and records Date.now() − capture time: both clocks are
 * this machine's.
 */
import { decodeCaptureCode, type LinkType } from '@ship-cctv/protocol';
import { MsePlayer } from '../../../packages/player/src/index.ts';
import type { LivePlayer, PlayerState, PlayerStats } from '../../../packages/player/src/index.ts';
import { FramePlayer } from '../../../packages/player/src/frames/index.ts';
import { stepWallClockMs } from '../../../packages/player/src/picture-age.ts';
import { emptyStats, medianOf } from '../../../packages/player/src/stats.ts';
import { type JanusWatch, JanusViewer } from './janus-viewer.ts';

export interface PageStart {
  /** ws URL of the shore's media socket. */
  url: string;
  token: string;
  cameraId: string;
  /**
   * `player`: 'frames' for a FramePlayer (WebCodecs, frames painted at their time), 'webrtc' for
   * the WebRTC peer (needs `janus`), else MsePlayer.
   */
  players: { label: string; liveLatencyTargetMs?: number; link?: LinkType; player?: 'mse' | 'frames' | 'webrtc' }[];
  /** The WebRTC peer and the camera it restreams (the one the ship reads). */
  janus?: JanusWatch;
}

export interface PagePlayerReport {
  label: string;
  cameraId: string;
  /** Every presented frame with a readable capture code since start (not reset by mark()): [Date.now(), capture ms, the stream's frame duration ms]. */
  frames: [number, number, number][];
  /** Presented frames per picture size ("640×360") since mark(): how long a lower definition was on. */
  sizes: Record<string, number>;
  state: PlayerState;
  stats: PlayerStats;
  /** The frame callback's rendering step (wall clock) − capture time, ms, one per presented frame since mark(). */
  glass: number[];
  /** The frame's expected display time − capture time, ms. */
  display: number[];
  /** The frame callback's rendering step (wall clock) − arrival of the latest media message on the socket, ms. */
  sinceArrival: number[];
  /** End of the buffered media − the presented frame's media time, ms (one frame duration when it is the newest). */
  bufferedAfter: number[];
  /** Presented frames whose capture code could not be read, since mark(). */
  unreadable: number;
  /** The player's stats.latencyMs once a second, since mark(). */
  bufferLatency: number[];
  /** The player's stats.pictureAgeMs (what the cell shows as latency) once a second, since mark(). */
  pictureAge: number[];
  /**
   * Once a second since mark(), beside the cell's figure: [the figure, the median of `glass` over the
   * last 10 frames presented] — what the benchmark measured for the pictures the figure is of (the
   * player's figure is the median age of its last 10 pictures shown).
   */
  cellBeside: Array<[cell: number, measured: number]>;
  errors: string[];
  states: string[];
  /** 'waiting' events of the video since mark(): playback ran dry at the live edge. */
  waiting: number;
  /** playbackRate once a second since mark() (the catch-up). */
  rates: number[];
  /** The player's stats.latencyTargetMs once a second since mark() (what the catch-up aims for). */
  targets: number[];
  /** Whether the ship re-encoded the camera's picture for this stream (its `codec` message), when it said. */
  shipTranscoded?: boolean;
  videoWidth: number;
  videoHeight: number;
  droppedFrames: number;
  totalFrames: number;
}

export interface PageApi {
  /** Plays the camera with the given players; `add` keeps the players already running (several cameras at once). */
  start(options: PageStart, add?: boolean): void;
  /** Starts the measured window: forgets what was recorded so far. */
  mark(): void;
  report(): PagePlayerReport[];
  stop(): void;
}

declare global {
  interface Window {
    bench: PageApi;
  }
}

/** What the page needs of a player: the product's (LivePlayer) or the WebRTC peer's. */
type BenchPlayer = Pick<LivePlayer, 'state' | 'stats' | 'destroy'>;

interface Running {
  label: string;
  cameraId: string;
  frames: [number, number, number][];
  sizes: Record<string, number>;
  /** Frame rate per picture width, from the stream's codec messages. */
  frameRates: Map<number, number>;
  player: BenchPlayer;
  video: HTMLVideoElement;
  glass: number[];
  display: number[];
  sinceArrival: number[];
  bufferedAfter: number[];
  /** Date.now() when the latest binary message arrived. */
  lastArrival: number;
  unreadable: number;
  bufferLatency: number[];
  pictureAge: number[];
  cellBeside: Array<[cell: number, measured: number]>;
  errors: string[];
  states: string[];
  waiting: number;
  rates: number[];
  targets: number[];
  shipTranscoded?: boolean;
  sampler: ReturnType<typeof setInterval>;
  alive: boolean;
}

/** The browser's WebSocket, noting when each media message arrives. */
function arrivalSocket(onMedia: () => void): new (url: string) => WebSocket {
  return class extends WebSocket {
    constructor(url: string) {
      super(url);
      // Registered before the player's onmessage, so it runs first.
      this.addEventListener('message', (ev: MessageEvent) => {
        if (typeof ev.data !== 'string') onMedia();
      });
    }
  };
}

let running: Running[] = [];

function watchFrames(r: Running): void {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const onFrame = (step: number, meta: VideoFrameCallbackMetadata): void => {
    if (!r.alive) return;
    // The display time: the rendering step's (as wall clock), the same for every video's callback
    // of that step — not when this one came to run, after the other videos' reading of their
    // pixels, nor after its own below.
    const now = stepWallClockMs(step);
    const w = r.video.videoWidth;
    const h = r.video.videoHeight;
    if (ctx && w > 0 && h > 0) {
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
      }
      ctx.drawImage(r.video, 0, 0, w, h);
      const captured = decodeCaptureCode(ctx.getImageData(0, 0, w, h).data, w, h);
      if (captured === undefined) {
        r.unreadable++;
      } else {
        r.frames.push([now, captured, 1000 / (r.frameRates.get(w) ?? 10)]);
        r.sizes[`${w}×${h}`] = (r.sizes[`${w}×${h}`] ?? 0) + 1;
        r.glass.push(now - captured);
        r.display.push(performance.timeOrigin + meta.expectedDisplayTime - captured);
        // (The WebRTC peer's media does not come over the page's sockets.)
        if (r.lastArrival > 0) r.sinceArrival.push(now - r.lastArrival);
        const b = r.video.buffered;
        if (b.length > 0) r.bufferedAfter.push((b.end(b.length - 1) - meta.mediaTime) * 1000);
      }
    }
    r.video.requestVideoFrameCallback(onFrame);
  };
  r.video.requestVideoFrameCallback(onFrame);
}

/** The product's player on `video`, playing the camera; `r` is filled in by the caller. */
function productPlayer(video: HTMLVideoElement, options: PageStart, p: PageStart['players'][number], r: () => Running): LivePlayer {
  const Player = p.player === 'frames' ? FramePlayer : MsePlayer;
  const player: LivePlayer = new Player(video, {
    url: options.url,
    token: options.token,
    // r() exists by the time a message arrives.
    WebSocketImpl: arrivalSocket(() => (r().lastArrival = Date.now())),
    reconnect: { minMs: 250, maxMs: 4_000 },
    ...(p.liveLatencyTargetMs !== undefined ? { liveLatencyTargetMs: p.liveLatencyTargetMs } : {}),
    link: p.link,
  });
  player.on('state', ({ state }) => r().states.push(`${Math.round(performance.now())}:${state}`));
  player.on('error', (e) => r().errors.push(`${e.kind}: ${e.message}`));
  player.on('codec', (c) => {
    if (c.transcoded !== undefined) r().shipTranscoded = c.transcoded;
    if (c.frameRate) r().frameRates.set(c.width, c.frameRate);
  });
  player.play({ type: 'play', mode: 'live', cameraId: options.cameraId });
  return player;
}

/** The WebRTC peer on `video` as a BenchPlayer: its state, first frame and errors (no buffer figures). */
function webrtcPlayer(video: HTMLVideoElement, janus: JanusWatch, r: () => Running): BenchPlayer {
  const viewer = new JanusViewer(video, janus, {
    onState: (state) => r().states.push(`${Math.round(performance.now())}:${state}`),
    onError: (message) => r().errors.push(message),
  });
  const stats: PlayerStats = emptyStats();
  return {
    get state(): PlayerState {
      return viewer.state === 'playing' ? 'playing' : viewer.state === 'connecting' ? 'connecting' : viewer.state === 'error' ? 'error' : 'ended';
    },
    get stats(): PlayerStats {
      return { ...stats, firstFrameMs: viewer.firstFrameMs, width: video.videoWidth || undefined, height: video.videoHeight || undefined };
    },
    destroy: () => viewer.destroy(),
  };
}

function start(options: PageStart, add = false): void {
  if (!add) stop();
  const started = options.players.map((p) => {
    const video = document.createElement('video');
    video.width = 320;
    video.height = 180;
    document.body.appendChild(video);
    // The player's callbacks reach its record, made just below.
    const made: { r?: Running } = {};
    const current = () => {
      if (!made.r) throw new Error('not started yet');
      return made.r;
    };
    let player: BenchPlayer;
    if (p.player === 'webrtc') {
      if (!options.janus) throw new Error('the webrtc player needs PageStart.janus');
      player = webrtcPlayer(video, options.janus, current);
    } else player = productPlayer(video, options, p, current);
    const r: Running = {
      label: p.label,
      cameraId: options.cameraId,
      frames: [],
      sizes: {},
      frameRates: new Map(),
      player,
      video,
      glass: [],
      display: [],
      sinceArrival: [],
      bufferedAfter: [],
      lastArrival: 0,
      unreadable: 0,
      bufferLatency: [],
      pictureAge: [],
      cellBeside: [],
      errors: [],
      states: [],
      waiting: 0,
      rates: [],
      targets: [],
      alive: true,
      sampler: setInterval(() => {
        const l = player.stats.latencyMs;
        if (l !== undefined) current().bufferLatency.push(l);
        const age = player.stats.pictureAgeMs;
        if (age !== undefined) current().pictureAge.push(age);
        // Pushed whenever the figure is (the last 10 frames, or those there are), so that entries stay a
        // second apart from mark() as pictureAge's do and the steady state slices both alike.
        const measured = medianOf(current().glass.slice(-10));
        if (age !== undefined && measured !== undefined) current().cellBeside.push([age, measured]);
        current().rates.push(video.playbackRate);
        const target = player.stats.latencyTargetMs;
        if (target !== undefined) current().targets.push(target);
      }, 1_000),
    };
    made.r = r;
    video.addEventListener('waiting', () => r.waiting++);
    watchFrames(r);
    return r;
  });
  running = [...running, ...started];
}

function mark(): void {
  for (const r of running) {
    r.glass = [];
    r.display = [];
    r.sinceArrival = [];
    r.bufferedAfter = [];
    r.unreadable = 0;
    r.bufferLatency = [];
    r.pictureAge = [];
    r.cellBeside = [];
    r.sizes = {};
    r.waiting = 0;
    r.rates = [];
    r.targets = [];
  }
}

function report(): PagePlayerReport[] {
  return running.map((r) => {
    const q = r.video.getVideoPlaybackQuality();
    return {
      label: r.label,
      cameraId: r.cameraId,
      frames: r.frames,
      sizes: r.sizes,
      state: r.player.state,
      stats: r.player.stats,
      glass: r.glass,
      display: r.display,
      sinceArrival: r.sinceArrival,
      bufferedAfter: r.bufferedAfter,
      unreadable: r.unreadable,
      bufferLatency: r.bufferLatency,
      pictureAge: r.pictureAge,
      cellBeside: r.cellBeside,
      errors: r.errors,
      states: r.states,
      waiting: r.waiting,
      rates: r.rates,
      targets: r.targets,
      ...(r.shipTranscoded !== undefined ? { shipTranscoded: r.shipTranscoded } : {}),
      videoWidth: r.video.videoWidth,
      videoHeight: r.video.videoHeight,
      droppedFrames: q.droppedVideoFrames,
      totalFrames: q.totalVideoFrames,
    };
  });
}

function stop(): void {
  for (const r of running) {
    r.alive = false;
    clearInterval(r.sampler);
    r.player.destroy();
    r.video.remove();
  }
  running = [];
}

window.bench = { start, mark, report, stop };
