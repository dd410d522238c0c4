import type { WebSocket } from 'ws';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { CODES, type MediaClientMessage, type MediaErrorCode, type MediaServerMessage } from '@ship-cctv/protocol';
import { ApiError } from '../lib/envelope.ts';
import type { AuthContext } from '../services/sessions.ts';
import type { Lease } from '../media/stream-registry.ts';
import type { LiveSource, LiveViewer } from './live-source.ts';
import { LiveRequestError, type LiveService, type LiveTicket } from './live-service.ts';

const ClientMessage = Compile(
  Type.Union([
    Type.Object({
      type: Type.Literal('play'),
      mode: Type.Literal('live'),
      cameraId: Type.String({ minLength: 1, maxLength: 64 }),
      templateId: Type.Optional(Type.Integer({ minimum: 1 })),
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

/**
 * One player's media socket: play/stop/continue commands in, JSON events and fMP4 bytes out. It
 * enforces the continuous-watching limit on the server: after the organisation's minutes a
 * countdown, then the viewer's stream stops (and the uplink too if nobody else watches) until
 * the viewer asks to continue.
 */
export class ViewerSession implements LiveViewer {
  readonly consumer;
  private ticket: (LiveTicket & { source: () => LiveSource }) | undefined;
  private lease: Lease<LiveSource> | undefined;
  private limitTimer: NodeJS.Timeout | undefined;
  private countdownTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    readonly auth: AuthContext,
    private readonly live: LiveService,
    private readonly clock: WatchClock,
  ) {
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
      if (isBinary) return this.error('badRequest', 'binary messages are not accepted');
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
    this.onMessage(text).catch(() => this.error('internal', 'the server could not handle that command'));
  }

  private async onMessage(text: string): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.error('badRequest', 'messages must be JSON');
    }
    if (!ClientMessage.Check(msg)) return this.error('badRequest', 'unknown command: expected {"type":"play","mode":"live","cameraId":…}, stop or continue');
    const cmd = msg as MediaClientMessage;
    switch (cmd.type) {
      case 'play':
        return this.play(cmd.cameraId, cmd.templateId);
      case 'stop':
        this.leave();
        this.sendJson({ type: 'status', state: 'ended', reason: 'stopped by the viewer' });
        return;
      case 'continue':
        if (!this.ticket) return;
        // During the countdown the stream still runs: only the limit starts over.
        if (this.lease) this.armLimit(this.ticket);
        else this.join();
        return;
    }
  }

  private async play(cameraId: string, templateId: number | undefined): Promise<void> {
    this.leave();
    try {
      this.ticket = await this.live.resolve(this.auth, cameraId, templateId);
    } catch (err) {
      if (err instanceof LiveRequestError) return this.error(err.code, err.message);
      if (err instanceof ApiError) {
        const code: MediaErrorCode = err.code === CODES.forbidden ? 'forbidden' : err.code === CODES.notFound ? 'notFound' : 'badRequest';
        return this.error(code, err.message);
      }
      throw err;
    }
    if (this.closed) return;
    this.sendJson({ type: 'status', state: 'starting', waitSeconds: this.ticket.waitSeconds });
    this.join();
  }

  private join(): void {
    const ticket = this.ticket;
    if (!ticket || this.closed) return;
    this.lease = this.live.join(ticket, this);
    this.armLimit(ticket);
  }

  private leave(): void {
    this.clearLimit();
    this.lease?.release();
    this.lease = undefined;
  }

  private armLimit(ticket: LiveTicket): void {
    this.clearLimit();
    const { enabled, minutes, countdownSeconds } = ticket.autoShutdown;
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
    this.sendJson({ type: 'error', code, message });
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    this.leave();
  }
}
