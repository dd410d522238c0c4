import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CODES, type TalkEndReason, type TalkErrorCode, type TalkFormat } from '@ship-cctv/protocol';
import type { LinkStream } from '../../core/ship-link/index.ts';
import type { LinkStreams } from '../../core/ship-link/index.ts';
import { ApiError } from '../../core/http/envelope.ts';
import type { FleetService } from '../fleet/index.ts';
import type { AuthContext } from '../../core/http/auth.ts';
import type { TalkHolder, TalkOccupancy } from './talk-occupancy.ts';

export interface TalkServiceOptions {
  /** The longest a talk may last (TALK_MAX_SECONDS). */
  maxSeconds: number;
}

/** What the talk's client hears once the talk has started. */
export interface TalkListener {
  /** The talk is over (not called after stop()). */
  ended(reason: TalkEndReason, message?: string): void;
}

/** A talk that started: the voice goes down the ship's link until stop() or its end. */
export interface ActiveTalk {
  readonly shipId: string;
  readonly maxSeconds: number;
  readonly talker: string;
  /** One message of the client's voice (packed Opus packets or WebM bytes), sent down as it is. */
  send(payload: Uint8Array): void;
  /** Ends the talk here (the ship is told; the occupancy is freed). */
  stop(): void;
}

export type TalkStart = { ok: true; talk: ActiveTalk } | { ok: false; code: TalkErrorCode; message: string; holder?: string };

/**
 * Talkback on shore: one talker per ship (TalkOccupancy), only to a ship whose config has talk on,
 * that is online and whose agent handles talk; the voice goes down as binary kind 4 frames of one
 * talk stream (counted as the link purpose `talk`), and the talk ends on stop, at the maximum
 * duration, or when the ship's link goes.
 */
export class TalkService {
  private readonly active = new Set<{ talkId: string; end(reason: TalkEndReason, message?: string): void }>();

  constructor(
    private readonly fleet: FleetService,
    private readonly streams: LinkStreams,
    private readonly occupancy: TalkOccupancy,
    private readonly log: FastifyBaseLogger,
    private readonly opts: TalkServiceOptions,
  ) {
    occupancy.onLost((shipId, talkId) => {
      for (const t of this.active) if (t.talkId === talkId) t.end('failed', `the talkback of ship ${shipId} was claimed by another talk after this one's claim lapsed`);
    });
  }

  async start(auth: AuthContext, cameraId: string, format: TalkFormat, listener: TalkListener): Promise<TalkStart> {
    let shipId: string;
    try {
      const { ship } = await this.fleet.requireCamera(auth, cameraId);
      shipId = ship.id;
      const config = await this.fleet.shipConfig(auth, ship.orgId, ship.id);
      if (!config.talk) return { ok: false, code: 'talkOff', message: `talkback is not enabled for ship ${ship.id}` };
    } catch (err) {
      if (err instanceof ApiError) return { ok: false, code: err.code === CODES.forbidden ? 'forbidden' : 'notFound', message: err.message };
      throw err;
    }
    // The claim comes before the link check: with several instances the talker may be on another
    // one, and "occupied by …" is what the operator needs to hear, wherever the ship's link is.
    const holder: TalkHolder = { talkId: randomUUID(), userId: auth.user.id, displayName: auth.user.displayName, cameraId, since: Date.now() };
    const current = await this.occupancy.claim(shipId, holder);
    if (current) return { ok: false, code: 'occupied', message: `the talkback of ship ${shipId} is held by ${current.displayName}`, holder: current.displayName };
    // Whether the ship is online and handles talk is the stream's answer (its link may be on another instance).
    let ended = false;
    // The stream and the timer, once set: end() reads them whenever it runs.
    const held: { stream?: LinkStream<'talk'>; timer?: NodeJS.Timeout } = {};
    const entry = {
      talkId: holder.talkId,
      end: (reason: TalkEndReason, message?: string, tellClient = true) => {
        if (ended) return;
        ended = true;
        clearTimeout(held.timer);
        this.active.delete(entry);
        const { stream } = held;
        if (stream?.open) stream.send({ type: 'talk.close', streamId: stream.id });
        stream?.close();
        void this.occupancy.release(shipId, holder.talkId).catch((err: unknown) => this.log.error({ err, shipId }, 'talk: freeing the ship failed'));
        this.log.info({ shipId, cameraId, talker: holder.displayName, reason, seconds: Math.round((Date.now() - holder.since) / 1000) }, 'talk ended');
        if (tellClient) listener.ended(reason, message);
      },
    };
    const opened = await this.streams.openStream(shipId, 'talk', {
      message: (msg) => {
        if (msg.type === 'talk.failed') entry.end('failed', msg.code === 'occupied' ? `the camera's backchannel is busy on the ship: ${msg.message}` : msg.message);
        else if (msg.type === 'talk.closed') entry.end('failed', 'the ship ended the talk');
      },
      closed: () => entry.end('shipOffline', `ship ${shipId} went offline`),
    });
    if (!opened.ok) {
      await this.occupancy.release(shipId, holder.talkId);
      if (opened.reason === 'offline') return { ok: false, code: 'shipOffline', message: `ship ${shipId} is offline` };
      return { ok: false, code: 'unsupported', message: `the agent of ship ${shipId} does not handle talkback` };
    }
    const { stream } = opened;
    held.stream = stream;
    stream.send({ type: 'talk.open', streamId: stream.id, cameraId, codec: 'opus', format, talker: holder.displayName });
    this.active.add(entry);
    held.timer = setTimeout(() => entry.end('maxDuration', `a talk lasts at most ${this.opts.maxSeconds} s`), this.opts.maxSeconds * 1000);
    this.log.info({ shipId, cameraId, talker: holder.displayName, format }, 'talk started');
    return {
      ok: true,
      talk: {
        shipId,
        maxSeconds: this.opts.maxSeconds,
        talker: holder.displayName,
        send: (payload) => {
          if (!ended) stream.sendBinary(payload);
        },
        stop: () => entry.end('stopped', undefined, false),
      },
    };
  }

  /** Ends every talk (server shutting down). */
  stopAll(): void {
    for (const t of [...this.active]) t.end('failed', 'the server is shutting down');
  }
}
