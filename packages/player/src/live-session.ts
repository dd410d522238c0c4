import type { MediaClientMessage, MediaServerMessage } from '@ship-cctv/protocol';
import { backoffDelay } from '@ship-cctv/protocol';
import { MediaSocket, mediaSocketUrl } from './media-socket.ts';
import { interpretServerMessage } from './server-events.ts';
import { emptyStats } from './stats.ts';
import type { CodecInfo, MsePlayerEventMap, MsePlayerOptions, PlayerCommand, PlayerError, PlayerState, PlayerStats, SocketConstructor } from './types.ts';
import { SlidingRate, stallVerdict } from './watchdog.ts';

/** Stats, reconnect decisions and the watchdogs run at this pace: fine enough for a 1.1× catch-up, cheap. */
const TICK_MS = 250;

/** What a session reads of the player's options, defaults applied. */
export type LiveSessionSettings = Pick<MsePlayerOptions, 'url' | 'token' | 'WebSocketImpl' | 'reconnect' | 'captureLatencyProbe'> & {
  stallTimeoutMs: number;
  silenceReconnectMs: number;
  startupTimeoutMs: number;
};

export type PositionInfo = Extract<MediaServerMessage, { type: 'position' }>;

/** What a player tells the session at a tick. */
export interface TickReport {
  /** The player saw frames come back this tick and said so (framesShown): no stall to judge. */
  framesResumed?: boolean;
  /** The operator paused a playback: no first frame is awaited. */
  userPaused?: boolean;
}

/** The part of a player a session drives: what it decodes and shows, and how. */
export interface SessionPlayer {
  /** The command a new socket sends (a playback resumes from its last position); undefined: none to open. */
  commandToSend(): PlayerCommand | undefined;
  /** A new socket is about to open: forget what belonged to the last one. */
  connecting?(): void;
  /** The socket opened and the command went: anything to send after it. */
  opened?(): void;
  /** The server's `codec`: the stream, or a new generation of it, starts (already emitted). */
  codec(codec: CodecInfo): void;
  /** A ship-end playback's `position`. */
  position?(position: PositionInfo): void;
  /** Media bytes from the socket (already counted). */
  binary(bytes: Uint8Array<ArrayBuffer>): void;
  /** The server said the stream ended: true when the player ends it itself (once its buffer played out). */
  serverEnded?(): boolean;
  /** The session dropped the socket to start over: what was being decoded goes too. */
  restarting?(): void;
  /**
   * The picture stood still while bytes kept coming (stallVerdict `frozen`): what paints them is
   * stuck and starts afresh with the next socket (a new MediaSource).
   */
  paintingStuck?(): void;
  /** Every tick, after the bitrate and before the watchdogs: the player's own stats and progress. */
  tick(now: number): TickReport;
}

type Emit = <K extends keyof MsePlayerEventMap>(type: K, payload: MsePlayerEventMap[K]) => void;

/**
 * One stream of a player from play() to stop(), whatever paints its frames (MsePlayer through
 * Media Source Extensions, FramePlayer through WebCodecs): the media socket (a new one after each
 * loss, with backoff), the server's messages (codec, starting, offline, errors, the watching
 * limit…), the state machine and its events, the first frame, and the watchdogs (stalled,
 * silent socket, no picture at startup). The player reports its progress (`framesShown`,
 * `noteProgress`) and decodes what `SessionPlayer.binary` hands it.
 */
export class LiveSession {
  /** The stream's stats: reset by play(), filled by the session and the player. */
  readonly stats: PlayerStats = emptyStats();
  /** The media socket: one at a time, each a session. */
  private readonly socket: MediaSocket;
  private current: PlayerState = 'idle';
  /** Between play() and end(): lost sockets are replaced. */
  private active = false;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private finalFromServer = false;
  private serverHold = false;
  private failedSocket = -1;
  private playCalledAt = 0;
  /** Since when a (first) frame is awaited; undefined while frames show. */
  private waitingSince: number | undefined;
  private startupGraceMs = 0;
  private startupReported = false;
  /** A frame of this socket's stream is on screen. */
  private socketFrames = false;
  private lastBytesAt = 0;
  private lastProgressAt = 0;
  private readonly byteRate = new SlidingRate(2000);

  constructor(
    private readonly settings: LiveSessionSettings,
    private readonly video: HTMLVideoElement,
    private readonly player: SessionPlayer,
    private readonly emit: Emit,
  ) {
    this.socket = new MediaSocket(settings.WebSocketImpl ?? (globalThis.WebSocket as SocketConstructor), () => mediaSocketUrl(settings.url, settings.token));
  }

  get state(): PlayerState {
    return this.current;
  }

  /** A frame of the current socket's stream has been on screen. */
  get socketShowedFrames(): boolean {
    return this.socketFrames;
  }

  /** Counts sockets: a late callback checks it still belongs to the current one. */
  get socketNumber(): number {
    return this.socket.session;
  }

  /** A new stream: stats and counters from nothing, the tick running, the first socket opening. */
  play(): void {
    Object.assign(this.stats, emptyStats());
    this.active = true;
    this.attempt = 0;
    this.playCalledAt = performance.now();
    this.waitingSince = this.playCalledAt;
    this.startupReported = false;
    this.tickTimer = setInterval(() => this.tick(), TICK_MS);
    this.connect();
  }

  /** No tick, no socket (the server is told), no reconnect; the state stays for the player to set. */
  end(): void {
    this.active = false;
    clearInterval(this.tickTimer);
    clearTimeout(this.retryTimer);
    this.tickTimer = this.retryTimer = undefined;
    this.socket.drop(true);
  }

  /** After the continuous-watching limit: carry on (on a new socket if the server closed it). */
  continueWatching(): void {
    this.emit('continued', {});
    this.finalFromServer = false;
    if (this.socket.connected) this.socket.send({ type: 'continue' });
    else if (this.active) this.reconnectNow();
  }

  /**
   * A new socket at once, without backoff (the operator asked for something the running one cannot
   * give); `awaitFrames`: the startup bound runs again if no frame was awaited.
   */
  reconnectNow(awaitFrames = false): void {
    this.socket.drop(true);
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    if (awaitFrames) this.waitingSince ??= performance.now();
    this.connect();
  }

  /** Sends on the running stream; false when there is none to take it (ended, stopped, between sockets). */
  sendOnStream(message: MediaClientMessage): boolean {
    if (!this.socket.isOpen || this.finalFromServer) return false;
    this.socket.send(message);
    return true;
  }

  send(message: MediaClientMessage): void {
    this.socket.send(message);
  }

  /** Forgets the socket without reconnecting, telling the server to stop. */
  dropSocket(): void {
    this.socket.drop(true);
  }

  /** The socket looks dead or the picture broke: start over on a new one, after the backoff. */
  restart(): void {
    this.socket.drop(true);
    this.player.restarting?.();
    this.scheduleReconnect();
  }

  /**
   * A decode or media failure of the current socket: reported once per socket. false when there is
   * nothing to report (stopped, or this socket's failure was reported): the caller does nothing more.
   */
  reportMediaFailure(error: PlayerError): boolean {
    if (!this.active || this.failedSocket === this.socket.session) return false;
    this.failedSocket = this.socket.session;
    this.fail(error);
    return true;
  }

  /**
   * Frames of the current socket are on screen: the first frame is counted, the backoff starts
   * again from its shortest, and a waiting or stalled stream plays (`whileReconnecting`: also one
   * between sockets, for a player that still shows frames it holds).
   */
  framesShown(now: number, whileReconnecting = false): void {
    this.lastProgressAt = now;
    if (!this.socketFrames) {
      this.socketFrames = true;
      if (this.stats.firstFrameMs === undefined) {
        this.stats.firstFrameMs = Math.round(now - this.playCalledAt);
        this.emit('firstFrame', { ms: this.stats.firstFrameMs });
      }
      this.waitingSince = undefined;
      this.attempt = 0;
    }
    const state = this.current;
    if (state === 'connecting' || state === 'starting' || state === 'stalled' || (whileReconnecting && state === 'reconnecting')) this.setState('playing');
  }

  /** The picture moved (not a stall). */
  noteProgress(now: number): void {
    this.lastProgressAt = now;
  }

  /** Nothing is expected until now, on purpose (a paused playback): neither a stall nor silence. */
  quietOnPurpose(now: number): void {
    this.lastProgressAt = this.lastBytesAt = now;
  }

  /** Bytes came within the stall bound. */
  bytesFresh(now: number): boolean {
    return now - this.lastBytesAt < this.settings.stallTimeoutMs;
  }

  /** video.play() failed: a refusal to autoplay is the view's to explain (a gesture resumes), and no `startup` follows. */
  playRefused(err: unknown): void {
    if ((err as { name?: unknown } | null)?.name !== 'NotAllowedError') return;
    this.startupReported = true;
    this.fail({ kind: 'autoplay', message: 'The browser refused to start playback', cause: err });
  }

  setState(state: PlayerState): void {
    const previous = this.current;
    if (previous === state) return;
    this.current = state;
    this.emit('state', { state, previous });
  }

  fail(error: PlayerError): void {
    this.emit('error', error);
  }

  // ── socket ────────────────────────────────────────────────────────────────────────────────────

  private connect(): void {
    const command = this.active ? this.player.commandToSend() : undefined;
    if (!command) return;
    this.retryTimer = undefined;
    this.finalFromServer = this.serverHold = false;
    this.socketFrames = false;
    this.startupGraceMs = 0;
    this.lastBytesAt = this.lastProgressAt = performance.now();
    this.player.connecting?.();
    this.setState('connecting');
    this.socket.open({
      open: () => {
        this.socket.send(command);
        this.player.opened?.();
        this.setState('starting');
      },
      text: (text) => this.onText(text),
      binary: (bytes) => {
        this.stats.bytesReceived += bytes.byteLength;
        this.lastBytesAt = performance.now();
        this.player.binary(bytes);
      },
      closed: () => {
        if (this.active && !this.finalFromServer) this.scheduleReconnect();
      },
    });
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retryTimer);
    const delayMs = backoffDelay(this.attempt, this.settings.reconnect);
    this.attempt++;
    this.stats.reconnects++;
    if (this.waitingSince === undefined) {
      this.waitingSince = performance.now();
      this.startupReported = false;
    }
    this.setState('reconnecting');
    this.emit('reconnect', { attempt: this.attempt, delayMs });
    this.retryTimer = setTimeout(() => this.connect(), delayMs);
  }

  // ── server messages ───────────────────────────────────────────────────────────────────────────

  private onText(text: string): void {
    let msg: MediaServerMessage;
    try {
      msg = JSON.parse(text) as MediaServerMessage;
    } catch {
      return;
    }
    if (msg.type === 'codec') {
      this.emit('codec', msg);
      this.player.codec(msg);
      return;
    }
    if (msg.type === 'position') {
      this.player.position?.(msg);
      return;
    }
    const effect = interpretServerMessage(msg, { framesShowing: this.socketFrames });
    if (effect.final !== undefined) this.finalFromServer = effect.final;
    if (effect.hold !== undefined) this.serverHold = effect.hold;
    if (effect.startupGraceMs !== undefined) this.startupGraceMs = effect.startupGraceMs;
    if (effect.state && !(effect.state === 'ended' && this.player.serverEnded?.())) this.setState(effect.state);
    if (effect.error) this.fail(effect.error);
    if (msg.type === 'status') this.emit('status', msg);
    else if (msg.type === 'notice') this.emit('notice', msg);
  }

  // ── watchdogs ─────────────────────────────────────────────────────────────────────────────────

  private tick(): void {
    const now = performance.now();
    const settings = this.settings;
    this.byteRate.add(now, this.stats.bytesReceived);
    this.stats.bitrateKbps = Math.round((this.byteRate.perSecond() * 8) / 1000);
    const report = this.player.tick(now);

    const state = this.current;
    if (!report.framesResumed && (state === 'playing' || state === 'stalled')) {
      const verdict = stallVerdict({
        now,
        lastProgressAt: this.lastProgressAt,
        lastBytesAt: this.lastBytesAt,
        stallTimeoutMs: settings.stallTimeoutMs,
        silenceReconnectMs: settings.silenceReconnectMs,
      });
      if (verdict === 'reconnect' && !this.serverHold) {
        this.restart();
        return;
      }
      // Not in a hidden page, where the browser may stop painting on purpose.
      if (verdict === 'frozen' && !this.serverHold && !pageHidden()) {
        this.player.paintingStuck?.();
        this.restart();
        return;
      }
      if (verdict !== 'ok' && state === 'playing') {
        this.setState('stalled');
        this.fail({ kind: 'stalled', message: `No picture for ${settings.stallTimeoutMs} ms` });
      }
    }

    const waiting = state === 'connecting' || state === 'starting' || state === 'reconnecting';
    const bound = settings.startupTimeoutMs + this.startupGraceMs;
    if (waiting && !report.userPaused && this.waitingSince !== undefined && !this.startupReported && now - this.waitingSince >= bound) {
      this.startupReported = true;
      this.fail({ kind: 'startup', message: `No picture within ${bound} ms` });
    }

    if (settings.captureLatencyProbe) this.stats.captureLatencyMs = settings.captureLatencyProbe(this.video);
  }
}

function pageHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}
