import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  CODES,
  DECODERS_MAX_ITEMS,
  DECODER_ENTRY_MAX_CHARS,
  type DecoderPrefix,
  viewerDecoders,
  type MediaClientMessage,
  type MediaErrorCode,
  type MediaServerMessage,
  type PlaybackControlCommand,
  type ShipPlaybackCommand,
} from '@ship-cctv/protocol';
import { ApiError } from '../../core/http/envelope.ts';
import type { AuthContext } from '../../core/http/auth.ts';
import type { Lease } from '../../core/media/stream-registry.ts';
import type { MediaViewer } from '../../core/media/viewer.ts';
import { TokenBucket } from '../../core/lib/token-bucket.ts';
import type { OrgTree } from '../../core/orgs/org-tree.ts';
import { LiveRequestError } from '../fleet/index.ts';
import type { LiveService, LiveSource, LiveTicket } from '../live/index.ts';
import { type PlaybackCommand, type PlaybackService, checkPlaybackCommand } from '../playback/index.ts';
import { PlayGate } from './play-gate.ts';

/** Control characters (NUL included): no id in a socket message may hold one. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** Id fields of the media socket's commands. */
const ID_FIELDS = ['cameraId', 'carouselId', 'timeZone'] as const;

/**
 * A play's `decoders`: codec prefixes, each a short token. Entries this server does not know are
 * ignored (viewerDecoders); anything that is not such a list is refused as malformed.
 */
const DecodersList = Type.Array(Type.String({ minLength: 1, maxLength: DECODER_ENTRY_MAX_CHARS, pattern: '^[A-Za-z0-9._-]+$' }), { maxItems: DECODERS_MAX_ITEMS });
const CheckDecoders = Compile(DecodersList);

const ClientMessage = Compile(
  Type.Union([
    Type.Object({
      type: Type.Literal('play'),
      mode: Type.Literal('live'),
      cameraId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }),
      templateId: Type.Optional(Type.Integer({ minimum: 1 })),
      carouselId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' })),
      decoders: Type.Optional(DecodersList),
    }),
    Type.Object({ type: Type.Literal('stop') }),
    Type.Object({ type: Type.Literal('continue') }),
  ]),
);

export interface WatchClock {
  /** Length of a "minute" of the continuous-watching limit (tests shorten it). */
  minuteMs: number;
}

/** Close code when the hub drops a viewer that cannot keep up. */
export const CLOSE_TOO_SLOW = 4008;
/** Close code of a media socket that sent messages faster than MEDIA_SOCKET_LIMITS allow. */
export const CLOSE_TOO_MANY_MESSAGES = 4029;

/**
 * What one media socket may send. A player sends a play when it opens and when its cell changes
 * (a carousel's page, a definition switch), and a few playback controls; a 16-cell grid is 16
 * sockets with one play each. The burst and the rate leave room for a user dragging a seek bar;
 * a socket past them is told why and closed.
 */
export const MEDIA_SOCKET_LIMITS = {
  /** Messages a socket may send at once. */
  burst: 60,
  /** Messages a second it may keep sending. */
  perSecond: 20,
  /** Play requests of one user being resolved at a time, across the user's sockets. */
  resolvingPerUser: 2,
} as const;

/** What a media socket may use besides the live service; all optional (tests leave them out). */
export interface ViewerSessionExtras {
  playback?: PlaybackService | undefined;
  /** Told of each error message sent to the viewer (counted in /metrics by code). */
  onError?: ((code: MediaErrorCode) => void) | undefined;
  log?: FastifyBaseLogger | undefined;
  /** Shared by every socket of the server: a user's play requests resolve a few at a time. */
  gate?: PlayGate | undefined;
  limits?: { burst: number; perSecond: number } | undefined;
  /**
   * Reads the organisation tree as it is now. The socket's session was checked once, when it
   * opened; each play is a request of its own and sees the organisations (their settings, their
   * tree) as they are when it is made. Without it, plays use the tree of the socket's session.
   */
  currentOrgs?: (() => Promise<OrgTree>) | undefined;
}

/**
 * What the viewer watches — a shared live stream or its own ship-end playback. The watch limit
 * treats both alike: `join` starts sending, the returned handle's `release` stops.
 */
interface Watch {
  autoShutdown: LiveTicket['autoShutdown'];
  join(): Joined;
}

interface Joined {
  release(): void;
  /** Playback controls (pause, resume, seek, speed); answers an error message when one cannot apply. */
  control?(cmd: PlaybackControlCommand): string | undefined;
}

/**
 * One player's media socket: play/stop/continue commands in, JSON events and fMP4 bytes out. It
 * enforces the continuous-watching limit on the server: after the organisation's minutes a
 * countdown, then the viewer's stream stops (and the uplink too if nobody else watches) until
 * the viewer asks to continue. The same socket carries ship-end playback (`mode: "shipPlayback"`
 * and its pause/resume/seek/speed controls), under the same limit.
 */
export class ViewerSession implements MediaViewer {
  readonly consumer;
  /** What the viewer's browser decodes, from its last play (H.264 only until one says more). */
  decoders: ReadonlySet<DecoderPrefix> = viewerDecoders(undefined);
  private watch: Watch | undefined;
  private joined: Joined | undefined;
  /** Counts play commands: a play answered after a newer one was sent is dropped. */
  private plays = 0;
  private limitTimer: NodeJS.Timeout | undefined;
  private countdownTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The live view asked for last (a continue after the limit's pause asks for it again). */
  private lastLive: { cameraId: string; templateId: number | undefined; carouselId: string | undefined } | undefined;
  /** The live stream this socket joined last (to tell a definition switch from a new view). */
  private watched: { cameraId: string; key: string; lease: Lease<LiveSource> } | undefined;
  /** A play is being resolved: newer ones wait in `nextPlay`, only the newest of them. */
  private resolving = false;
  private nextPlay: (() => Promise<void>) | undefined;
  private readonly bucket: TokenBucket;
  private readonly playback: PlaybackService | undefined;
  private readonly onError: ((code: MediaErrorCode) => void) | undefined;
  private readonly log: FastifyBaseLogger | undefined;
  private readonly gate: PlayGate;
  private readonly currentOrgs: (() => Promise<OrgTree>) | undefined;

  constructor(
    private readonly ws: WebSocket,
    readonly auth: AuthContext,
    private readonly live: LiveService,
    private readonly clock: WatchClock,
    extras: ViewerSessionExtras = {},
  ) {
    this.playback = extras.playback;
    this.onError = extras.onError;
    this.log = extras.log;
    this.gate = extras.gate ?? new PlayGate(MEDIA_SOCKET_LIMITS.resolvingPerUser);
    this.currentOrgs = extras.currentOrgs;
    const limits = extras.limits ?? MEDIA_SOCKET_LIMITS;
    this.bucket = new TokenBucket(limits.burst, limits.perSecond);
    this.consumer = {
      send: (data: Uint8Array) => {
        if (ws.readyState === ws.OPEN) ws.send(data, { binary: true });
      },
      bufferedAmount: () => ws.bufferedAmount,
      drop: (reason: string) => {
        this.sendJson({ type: 'status', state: 'ended', reason });
        this.close(CLOSE_TOO_SLOW, 'too slow');
      },
    };
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.overRate() || this.error('badRequest', 'binary messages are not accepted');
      this.handleText(String(data));
    });
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
  }

  sendJson(message: MediaServerMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  close(code: number, reason: string): void {
    this.cleanup();
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  handleText(text: string): void {
    if (this.overRate()) return;
    this.onMessage(text).catch((err: unknown) => this.internal(err));
  }

  /**
   * Counts a message against the socket's rate; past it the viewer is told (both languages) and
   * the socket closed, and true is answered.
   */
  private overRate(): boolean {
    if (this.closed) return true;
    if (this.bucket.take()) return false;
    const { capacity, perSecond } = this.bucket;
    this.log?.warn({ userId: this.auth.user.id, burst: capacity, perSecond }, 'media socket: too many messages; closing it');
    this.error('badRequest', `消息过多，连接已关闭 (too many messages: at most ${capacity} at once and ${perSecond} a second; the socket is closed)`);
    this.close(CLOSE_TOO_MANY_MESSAGES, 'too many messages');
    return true;
  }

  private internal(err: unknown): void {
    this.log?.error({ err, userId: this.auth.user.id }, 'media socket: handling a command failed');
    this.error('internal', 'the server could not handle that command');
  }

  private async onMessage(text: string): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.error('badRequest', 'messages must be JSON');
    }
    if (typeof msg === 'object' && msg !== null) {
      const bad = ID_FIELDS.find((f) => {
        const v = (msg as Record<string, unknown>)[f];
        return typeof v === 'string' && CONTROL_CHARACTER.test(v);
      });
      if (bad) return this.error('badRequest', `"${bad}" may not contain control characters`);
    }
    if (typeof msg === 'object' && msg !== null && (msg as Record<string, unknown>).type === 'play' && 'decoders' in msg && !CheckDecoders.Check((msg as Record<string, unknown>).decoders)) {
      return this.error(
        'badRequest',
        `"decoders" must be a list of at most ${DECODERS_MAX_ITEMS} codec prefixes (letters, digits, dots, dashes or underscores, at most ${DECODER_ENTRY_MAX_CHARS} characters each), such as ["avc1","av01"]`,
      );
    }
    const playback = checkPlaybackCommand(msg, Date.now());
    if (playback) return playback.ok ? this.onPlaybackCommand(playback.command) : this.error('badRequest', playback.message);
    if (!ClientMessage.Check(msg)) {
      return this.error(
        'badRequest',
        'unknown command: expected {"type":"play","mode":"live"|"shipPlayback","cameraId":…}, stop, continue, pause, resume, seek or speed',
      );
    }
    const cmd = msg as MediaClientMessage;
    switch (cmd.type) {
      case 'play':
        this.decoders = viewerDecoders(cmd.mode === 'live' ? cmd.decoders : undefined);
        return this.queuePlay(() => (cmd.mode === 'live' ? this.play(cmd.cameraId, cmd.templateId, cmd.carouselId) : this.play(cmd.cameraId, cmd.templateId)));
      case 'stop':
        this.plays++; // a play still being resolved does not start after all
        this.nextPlay = undefined;
        this.leave();
        this.sendJson({ type: 'status', state: 'ended', reason: 'stopped by the viewer' });
        return;
      case 'continue':
        if (!this.watch) return;
        // During the countdown the stream still runs: only the limit starts over.
        if (this.joined) this.armLimit(this.watch);
        // After the pause a live view starts again as a new one: access and the live service's
        // admission rules (a used-up data budget) are asked again.
        else if (this.lastLive) {
          const { cameraId, templateId, carouselId } = this.lastLive;
          this.queuePlay(() => this.play(cameraId, templateId, carouselId));
        } else this.join();
        return;
    }
  }

  /**
   * Resolves one play at a time on this socket: a play that comes while one is being resolved
   * supersedes it (its answer is dropped) and waits; a newer one replaces the waiting one. However
   * many plays arrive while one resolves, one more is resolved after it: the newest.
   */
  private queuePlay(run: () => Promise<void>): void {
    if (this.resolving) {
      this.nextPlay = run;
      return;
    }
    this.resolving = true;
    void (async () => {
      let job: (() => Promise<void>) | undefined = run;
      while (job && !this.closed) {
        this.nextPlay = undefined;
        try {
          await this.gate.run(this.auth.user.id, job);
        } catch (err) {
          this.internal(err);
        }
        job = this.nextPlay;
      }
      this.nextPlay = undefined;
      this.resolving = false;
    })();
  }

  private async onPlaybackCommand(cmd: PlaybackCommand): Promise<void> {
    if (cmd.type === 'play') {
      this.decoders = viewerDecoders(cmd.decoders);
      return this.queuePlay(() => this.playShip(cmd));
    }
    const message = this.joined?.control ? this.joined.control(cmd) : 'no ship-end playback is running on this socket';
    if (message) this.error('badRequest', message);
  }

  private async playShip(cmd: ShipPlaybackCommand): Promise<void> {
    this.leave();
    this.watched = undefined;
    this.watch = undefined;
    this.lastLive = undefined;
    const service = this.playback;
    if (!service) return this.error('badRequest', 'ship-end playback is not available on this server');
    const play = ++this.plays;
    let ticket;
    try {
      ticket = await service.resolve(await this.playAccess(), cmd);
    } catch (err) {
      if (this.refused(err)) return;
      throw err;
    }
    if (this.closed || play !== this.plays || this.nextPlay) return; // stopped, or a newer play came
    this.watch = {
      autoShutdown: ticket.autoShutdown,
      join: () => {
        const control = (c: PlaybackControlCommand) => run.control(c);
        // The range is done or failed: nothing runs any more, nothing counts towards the limit, and
        // there is nothing to continue.
        const finished = () => {
          if (this.joined?.control !== control) return;
          this.clearLimit();
          this.joined = undefined;
          this.watch = undefined;
        };
        const run = service.start(ticket, this, finished);
        return { release: () => run.stop(), control };
      },
    };
    this.sendJson({ type: 'status', state: 'starting', waitSeconds: ticket.waitSeconds });
    this.join();
  }

  /** The socket's access with the organisation tree as it is now (one read per play). */
  private async playAccess(): Promise<AuthContext> {
    return this.currentOrgs ? { ...this.auth, orgs: await this.currentOrgs() } : this.auth;
  }

  /** Answers a refused play request (access, definition) to the viewer; false for other errors. */
  private refused(err: unknown): boolean {
    if (err instanceof LiveRequestError) {
      this.error(err.code, err.message);
      return true;
    }
    if (err instanceof ApiError) {
      const code: MediaErrorCode = err.code === CODES.forbidden ? 'forbidden' : err.code === CODES.notFound ? 'notFound' : 'badRequest';
      this.error(code, err.message);
      return true;
    }
    return false;
  }

  private async play(cameraId: string, templateId: number | undefined, carouselId?: string): Promise<void> {
    const left = this.watched;
    this.leave();
    this.lastLive = { cameraId, templateId, carouselId };
    this.watched = undefined;
    const play = ++this.plays;
    let ticket;
    try {
      ticket = await this.live.resolve(await this.playAccess(), cameraId, templateId, { carouselId, decoders: this.decoders });
    } catch (err) {
      if (this.refused(err)) return;
      throw err;
    }
    if (this.closed || play !== this.plays || this.nextPlay) return; // stopped, or a newer play came
    // The same camera at another definition (the operator's pick, the grid's size): the stream left
    // behind is not wanted by this viewer any more.
    if (left && left.cameraId === cameraId && left.key !== ticket.key) this.live.stopLeftBehind(left.lease.source);
    this.watch = {
      autoShutdown: ticket.autoShutdown,
      join: () => {
        const lease = this.live.join(ticket, this);
        this.watched = { cameraId, key: ticket.key, lease };
        return lease;
      },
    };
    this.sendJson({ type: 'status', state: 'starting', waitSeconds: ticket.waitSeconds });
    for (const notice of ticket.notices) this.sendJson({ type: 'notice', ...notice });
    this.join();
  }

  private join(): void {
    const watch = this.watch;
    if (!watch || this.closed) return;
    this.joined = watch.join();
    this.armLimit(watch);
  }

  private leave(): void {
    this.clearLimit();
    const joined = this.joined;
    this.joined = undefined;
    joined?.release();
  }

  private armLimit(watch: Watch): void {
    this.clearLimit();
    const { enabled, minutes, countdownSeconds } = watch.autoShutdown;
    if (!enabled || minutes <= 0) return;
    const warnAfter = Math.max(0, minutes * this.clock.minuteMs - countdownSeconds * 1000);
    this.limitTimer = setTimeout(() => {
      let left = countdownSeconds;
      const tick = () => {
        if (left <= 0) {
          this.leave();
          this.sendJson({ type: 'status', state: 'limit', countdownSeconds: 0, reason: 'continuous watching limit reached' });
          return;
        }
        this.sendJson({ type: 'status', state: 'limit', countdownSeconds: left });
        left -= 1;
        this.countdownTimer = setTimeout(tick, 1000);
      };
      tick();
    }, warnAfter);
  }

  private clearLimit(): void {
    clearTimeout(this.limitTimer);
    clearTimeout(this.countdownTimer);
  }

  private error(code: MediaErrorCode, message: string): void {
    // Refusals of what the viewer sent are worth a line (the socket's rate bounds how many);
    // internal faults were logged with their error already.
    if (code === 'badRequest') this.log?.info({ userId: this.auth.user.id, message }, 'media socket: command refused');
    this.onError?.(code);
    this.sendJson({ type: 'error', code, message });
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    this.leave();
  }
}
