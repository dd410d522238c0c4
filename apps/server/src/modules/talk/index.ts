import fp from 'fastify-plugin';
import { TALK_MAX_SECONDS_DEFAULT } from '@ship-cctv/protocol';
import { LocalTalkOccupancy, type TalkOccupancy } from './talk-occupancy.ts';
import { RedisTalkOccupancy } from './redis-talk-occupancy.ts';
import { TalkService } from './talk-service.ts';
import { TalkSocket } from './talk-socket.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Talkback: one talker per ship, the voice down the ship's link. */
    talk: TalkService;
    /** Who holds which ship's talkback: this process, or Redis shared by every instance. */
    talkOccupancy: TalkOccupancy;
  }
}

export interface TalkPluginOptions {
  /** The longest a talk may last, in seconds. Default: TALK_MAX_SECONDS, else 120. */
  maxSeconds?: number;
  /** Who holds which ship's talkback (default: Redis with redisUrl, else this process). */
  occupancy?: TalkOccupancy;
  /** With a Redis URL, one talker per ship across every instance. */
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  /** With Redis: how long a talk's claim lives without renewal (default 6 s), so a dead instance's talk frees the ship. */
  leaseMs?: number | undefined;
}

/** Reads TALK_MAX_SECONDS (5–3600). */
export function talkMaxSecondsFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.TALK_MAX_SECONDS;
  if (raw === undefined || raw === '') return TALK_MAX_SECONDS_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 5 || n > 3600) throw new Error(`TALK_MAX_SECONDS must be whole seconds from 5 to 3600 (got "${raw}")`);
  return n;
}

/**
 * Talkback: a media socket whose first command is `talk.start` is a talk (the media socket's
 * extension point, the viewer module's `app.mediaSocket`), authenticated like every media socket.
 * Offers `app.talk` and `app.talkOccupancy`. Needs the fleet, the viewer, sessions and link streams.
 */
export default fp<TalkPluginOptions>(
  async (app, opts) => {
    const log = app.log.child({ module: 'talk' });
    const occupancy =
      opts.occupancy ??
      (opts.redisUrl
        ? await RedisTalkOccupancy.connect(opts.redisUrl, opts.redisPrefix, { leaseMs: opts.leaseMs, onError: (err) => log.warn({ err: err.message }, 'talk: redis error') })
        : new LocalTalkOccupancy());
    app.decorate('talkOccupancy', occupancy);
    app.addHook('onClose', () => occupancy.close());
    const service = new TalkService(app.fleet, app.linkStreams, occupancy, log, {
      maxSeconds: opts.maxSeconds ?? talkMaxSecondsFromEnv(process.env),
    });
    app.decorate('talk', service);
    const sockets = new Set<TalkSocket>();
    app.mediaSocket.register('talk.start', (socket, auth, first, rest) => {
      const talk = new TalkSocket(socket, auth, service, log, () => sockets.delete(talk));
      sockets.add(talk);
      talk.begin(first, rest);
    });
    // Logout and displacement end the session's talk too.
    app.sessions.events.on('ended', ({ sessionId, reason }) => {
      for (const s of sockets) if (s.auth.sessionId === sessionId) s.end('signedOut', reason);
    });
    app.addHook('preClose', async () => {
      service.stopAll();
    });
  },
  { name: 'talk', dependencies: ['fleet', 'viewer', 'sessions', 'ship-link'] },
);
