import type { MediaErrorCode, MediaServerMessage } from '@ship-cctv/protocol';

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
  /** Buffered live-edge latency: end of the buffer minus currentTime. */
  latencyMs: number | undefined;
  bitrateKbps: number;
  fps: number;
  bytesReceived: number;
  droppedFrames: number;
  /** play() to the first frame on screen. */
  firstFrameMs: number | undefined;
  /** From options.captureLatencyProbe, when given: capture to display. */
  captureLatencyMs: number | undefined;
  playbackRate: number;
  reconnects: number;
  width: number | undefined;
  height: number | undefined;
}

export type CodecInfo = Extract<MediaServerMessage, { type: 'codec' }>;
export type StatusInfo = Extract<MediaServerMessage, { type: 'status' }>;
export type NoticeInfo = Extract<MediaServerMessage, { type: 'notice' }>;

export interface PlayerEventMap {
  state: { state: PlayerState; previous: PlayerState };
  error: PlayerError;
  /** The server's status as sent (waitSeconds, countdownSeconds for the view's texts). */
  status: StatusInfo;
  notice: NoticeInfo;
  codec: CodecInfo;
  reconnect: { attempt: number; delayMs: number };
  firstFrame: { ms: number };
}

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
  /** Latency the catch-up aims for. Default 300 ms; raise it for jittery satellite links. */
  liveLatencyTargetMs?: number;
  /** Further behind the live edge than this, jump instead of speeding up. Default 3000 ms. */
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
