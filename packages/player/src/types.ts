import type { LinkType, MediaErrorCode, MediaServerMessage, PlayCommand, PlaybackSpeed, ShipPlaybackCommand } from '@ship-cctv/protocol';
import type { LatencyTarget } from './latency-target.ts';

/** What play() takes: a live camera, or a ship-end playback of a recorded range. */
export type PlayerCommand = PlayCommand | ShipPlaybackCommand;

/**
 * What the player is doing. `starting` lasts until a frame is on screen, whatever the server says;
 * `offline`, `limit`, `ended` and `error` are held until play() or continueWatching().
 */
export type PlayerState =
  | 'idle'
  | 'connecting'
  | 'starting'
  | 'playing'
  | 'stalled'
  | 'reconnecting'
  | 'offline'
  | 'limit'
  | 'ended'
  | 'error';

/**
 * Typed errors: the view picks the text and the action (retry button, "click to play", nothing).
 * `autoplay` is apart from `startup` because its remedy differs: a user gesture, not a wait.
 */
export type PlayerErrorKind = 'startup' | 'decode' | 'offline' | 'stalled' | 'unsupported' | 'server' | 'autoplay';

export interface PlayerError {
  kind: PlayerErrorKind;
  message: string;
  /** With `server`: the server's error code. */
  code?: MediaErrorCode;
  cause?: unknown;
}

export interface PlayerStats {
  /**
   * Buffered live-edge latency: end of the buffer minus the playhead (the frame on screen when it
   * is ahead of currentTime), live: the median just after each of the last frames was appended.
   */
  latencyMs: number | undefined;
  bitrateKbps: number;
  /** The sound's share of bitrateKbps (its samples only); 0 for a stream without sound. */
  audioKbps: number;
  fps: number;
  bytesReceived: number;
  droppedFrames: number;
  /** play() to the first frame on screen. */
  firstFrameMs: number | undefined;
  /** From options.captureLatencyProbe, when given: capture to display. */
  captureLatencyMs: number | undefined;
  /**
   * Live: how old the picture on screen is — now minus when the ship's encoder put it out (the
   * fragment's producer reference time, ship clock), median of the last frames shown. What the
   * live-video benchmark measures as glass to glass, less the camera and encoder. Undefined when
   * the stream carries no such time or the clocks disagree beyond reason.
   */
  pictureAgeMs: number | undefined;
  playbackRate: number;
  /** The live latency the catch-up aims for (see MsePlayerOptions.liveLatencyTargetMs); undefined for a ship-end playback. */
  latencyTargetMs: number | undefined;
  reconnects: number;
  width: number | undefined;
  height: number | undefined;
}

export type CodecInfo = Extract<MediaServerMessage, { type: 'codec' }>;
export type StatusInfo = Extract<MediaServerMessage, { type: 'status' }>;
export type NoticeInfo = Extract<MediaServerMessage, { type: 'notice' }>;

/**
 * Ship-end playback: the recorded time the ship is sending (from the server's `position`, about
 * once a second, or the target of a seek at once), the speed and whether the operator paused.
 */
export interface PlaybackPosition {
  time: number;
  speed: PlaybackSpeed;
  paused: boolean;
}

export interface PlayerEventMap {
  state: { state: PlayerState; previous: PlayerState };
  error: PlayerError;
  /** The server's status as sent (waitSeconds, countdownSeconds for the view's texts). */
  status: StatusInfo;
  notice: NoticeInfo;
  codec: CodecInfo;
  reconnect: { attempt: number; delayMs: number };
  firstFrame: { ms: number };
  /**
   * continueWatching() was called, from whichever control: the view drops the watching limit's
   * countdown at once (a countdown that still comes means the server did not take it).
   */
  continued: Record<string, never>;
}

/** Events only a ship-end playback emits. */
export interface PlaybackEventMap {
  position: PlaybackPosition;
}

/** Everything MsePlayer emits. */
export type MsePlayerEventMap = PlayerEventMap & PlaybackEventMap;

/** The part of WebSocket the player uses, so tests can hand in a fake. */
export interface SocketLike {
  binaryType: BinaryType;
  readonly readyState: number;
  onopen: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type SocketConstructor = new (url: string) => SocketLike;

/** The part of MediaSource the player uses. */
export interface MediaSourceLike extends EventTarget {
  readonly readyState: ReadyState;
  addSourceBuffer(mime: string): SourceBuffer;
}
export interface MediaSourceConstructor {
  new (): MediaSourceLike;
  isTypeSupported(mime: string): boolean;
}

export interface MsePlayerOptions {
  /** ws(s) URL of the media socket (PATHS.media). */
  url: string;
  /** Sent as ?token= when set; otherwise the session cookie goes with the upgrade. */
  token?: string;
  WebSocketImpl?: SocketConstructor;
  MediaSourceImpl?: MediaSourceConstructor;
  /**
   * Live latency (end of the buffer − playhead) the catch-up aims for, ms. Default `auto`: the frame
   * on screen plus the queue the element needs to play evenly (250 ms, or a frame + 150 ms at slow
   * frame rates, from the stream's `codec` message), raised when frames come unevenly (a lossy link).
   */
  liveLatencyTargetMs?: LatencyTarget;
  /** The ship's link, for an `auto` target; MsePlayer.setLink() changes it later. */
  link?: LinkType;
  /** More than this beyond the latency target, jump instead of speeding up. Default 1000 ms. */
  liveJumpMs?: number;
  /** Media kept behind the playhead; older media is removed. Default 20 s. */
  maxBufferSeconds?: number;
  /** No progress or no bytes for this long while playing → `stalled`. Default 4000 ms. */
  stallTimeoutMs?: number;
  /** No bytes for this long without a word from the server → reconnect. Default 15000 ms. */
  silenceReconnectMs?: number;
  /** No first frame this long after play() or a lost stream → `startup` (plus the server's waitSeconds). Default 15000 ms. */
  startupTimeoutMs?: number;
  reconnect: { minMs: number; maxMs: number };
  /** Capture-to-display latency of the frame on screen, if the caller can tell (burnt-in clock, SEI). */
  captureLatencyProbe?: (video: HTMLVideoElement) => number | undefined;
}

/**
 * What a live view needs of its player: MsePlayer, or FramePlayer (`@ship-cctv/player/frames`)
 * where the browser can paint decoded frames itself.
 */
export interface LivePlayer {
  readonly state: PlayerState;
  readonly stats: PlayerStats;
  readonly latencyTargetMs: number;
  play(command: PlayerCommand): void;
  stop(): void;
  destroy(): void;
  continueWatching(): void;
  setLink(link: LinkType | undefined): void;
  setSound(on: boolean): void;
  on<K extends keyof MsePlayerEventMap>(type: K, listener: (payload: MsePlayerEventMap[K]) => void): () => void;
}
