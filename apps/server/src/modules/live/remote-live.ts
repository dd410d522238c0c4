import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { DECODER_PREFIXES, type DecoderPrefix, VIDEO_CODECS, type VideoCodec } from '@ship-cctv/protocol';
import type { AgentGateway, LinkStream } from '../../core/ship-link/index.ts';
import type { Lease } from '../../core/media/stream-registry.ts';
import type { RelayedStreamAbout } from '../../core/media/viewer.ts';
import { type LiveOrigin, type LiveStreamHandler, type LiveStreamSpec, agentEncodes } from './live-origin.ts';
import type { LiveService } from './live-service.ts';
import type { LiveSource } from './live-source.ts';
import type { ShipOwnership } from '../../core/ship-link/index.ts';

export interface RemoteLiveOptions {
  /** How often a watching instance says it still wants a stream (default 1 s); the owner lets it go after three missed. */
  heartbeatMs?: number | undefined;
}

/**
 * What a watching instance sends to the owner's request channel (JSON). `decoders`: what every
 * viewer of its stream decodes (absent: H.264 only), so the owner chooses the codec as for its own.
 */
type WatchRequest = { op: 'watch'; id: string; spec: LiveStreamSpec; decoders?: string[] } | { op: 'stop'; id: string };

/** The decoder prefixes of a watch request that this instance knows (anything else is ignored), H.264 always. */
const watchDecoders = (decoders: unknown): ReadonlySet<DecoderPrefix> => {
  const known = new Set<DecoderPrefix>(['avc1']);
  if (Array.isArray(decoders)) for (const d of decoders) {
    const prefix = DECODER_PREFIXES.find((p) => p === d);
    if (prefix) known.add(prefix);
  }
  return known;
};

/** What the owner's about channel carries, read leniently (a malformed message is ignored). */
const readAbout = (message: Buffer): RelayedStreamAbout | undefined => {
  let about: Partial<RelayedStreamAbout>;
  try {
    about = JSON.parse(message.toString('utf8')) as Partial<RelayedStreamAbout>;
  } catch {
    return undefined;
  }
  const codec = VIDEO_CODECS.find((c) => c === about.codec);
  if (!codec || typeof about.passThrough !== 'boolean') return undefined;
  const cameraCodec = about.cameraCodec === 'h264' || about.cameraCodec === 'h265' ? about.cameraCodec : undefined;
  return {
    codec,
    passThrough: about.passThrough,
    ...(cameraCodec ? { cameraCodec } : {}),
    ...(typeof about.transcoded === 'boolean' ? { transcoded: about.transcoded } : {}),
    encodes: VIDEO_CODECS.filter((c) => Array.isArray(about.encodes) && about.encodes.includes(c)),
  };
};

/** A remote viewer the owner serves: its lease on the stream, and when it last said it still watches. */
interface Served {
  lease: Lease<LiveSource>;
  seen: number;
}

/**
 * Live video between instances over Redis pub/sub. An instance with viewers of a ship it does not
 * own opens its stream at the owner: it publishes `watch` (the stream's spec) on the owner's request
 * channel, again every heartbeat while it is interested, and `stop` when it is not. The owner joins
 * the stream like a local viewer (one uplink for every viewer on every instance; the hub sends it
 * the init and the GOP from its keyframe first) and publishes the bytes, in order, on a channel of
 * that watch; the watching instance feeds them to its own source, which relays them to its viewers
 * from its own GOP cache. A watch not renewed is released; the owner's linger then applies.
 */
export class RemoteLive {
  readonly instanceId: string;
  private readonly served = new Map<string, Served>();
  private readonly watching = new Map<string, { media: (payload: Buffer) => void; about: (about: RelayedStreamAbout) => void }>();
  /** What the agents of ships owned elsewhere encode, as their owners said with the streams they relayed here. */
  private readonly relayedEncodes = new Map<string, readonly VideoCodec[]>();
  private readonly heartbeatMs: number;
  private readonly sweep: NodeJS.Timeout;
  private live: LiveService | undefined;

  private constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    private readonly gateway: AgentGateway,
    private readonly ownership: ShipOwnership,
    private readonly log: FastifyBaseLogger,
    opts: RemoteLiveOptions,
  ) {
    this.instanceId = ownership.instanceId;
    this.heartbeatMs = opts.heartbeatMs ?? 1_000;
    this.sweep = setInterval(() => {
      this.dropSilent();
      this.followOffline();
    }, this.heartbeatMs);
    this.sweep.unref();
  }

  static async connect(url: string, prefix: string, gateway: AgentGateway, ownership: ShipOwnership, log: FastifyBaseLogger, opts: RemoteLiveOptions = {}): Promise<RemoteLive> {
    const onError = (err: Error) => log.warn({ err: err.message }, 'remote live: redis error');
    const cmd = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    cmd.on('error', onError);
    sub.on('error', onError);
    const remote = new RemoteLive(cmd, sub, prefix, gateway, ownership, log, opts);
    await cmd.connect();
    await sub.connect();
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => remote.heard(channel.toString(), message));
    await sub.subscribe(remote.requestChannel(remote.instanceId));
    return remote;
  }

  /** The origin a cluster's live service uses: the ship's link here if this instance holds it, its owner otherwise. */
  origin(): LiveOrigin {
    return {
      open: (spec, handler, decoders) => {
        if (this.gateway.get(spec.shipId)?.ready) return this.gateway.openStream(spec.shipId, 'live', handler);
        return { ok: true, stream: this.remoteStream(spec, handler, decoders), relayed: true };
      },
      // A ship held here says what its agent encodes; one owned elsewhere, what its owner said with
      // the last stream it relayed here (H.264 only until then: the owner chooses the first one).
      encodes: (shipId, codec) =>
        this.gateway.get(shipId)?.ready ? agentEncodes(this.gateway, shipId, codec) : codec === 'h264' || (this.relayedEncodes.get(shipId)?.includes(codec) ?? false),
    };
  }

  /**
   * Serves watches of ships this instance owns from this live service, and makes its streams follow
   * their ship: when a ship's agent connects to another instance (a claim heard from there), or its
   * link here goes while another instance owns it, every stream of the ship left offline here
   * opens again through the origin (the new owner). Each heartbeat also looks up the owner of every
   * ship with streams still offline here, in case a claim went unheard (Redis reconnected).
   */
  serve(live: LiveService): void {
    this.live = live;
    this.ownership.events.on('claimedElsewhere', (shipId) => {
      if (!this.gateway.get(shipId)?.ready) live.reopenShip(shipId);
    });
    this.gateway.events.on('offline', (shipId) => void this.followShip(shipId));
  }

  /** Reopens the ship's offline streams here if another instance owns the ship now. */
  private async followShip(shipId: string): Promise<void> {
    try {
      const owner = await this.ownership.ownerOf(shipId);
      if (!owner || owner.instanceId === this.instanceId || this.gateway.get(shipId)?.ready) return;
      this.live?.reopenShip(shipId);
    } catch (err) {
      this.log.warn({ err, shipId }, 'remote live: looking up the owner of a ship failed');
    }
  }

  /** Watches served to other instances now (tests, introspection). */
  get servedCount(): number {
    return this.served.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    for (const id of [...this.served.keys()]) this.release(id);
    this.cmd.disconnect();
    this.sub.disconnect();
    return Promise.resolve();
  }

  private requestChannel(instanceId: string) {
    return `${this.prefix}live-req:${instanceId}`;
  }
  private mediaChannel(id: string) {
    return `${this.prefix}live-media:${id}`;
  }
  /**
   * What the owner says of a watch's stream (RelayedStreamAbout, JSON) before each init segment.
   * Published by the same connection as the media and heard by the same one: it arrives in order
   * with the bytes.
   */
  private aboutChannel(id: string) {
    return `${this.prefix}live-about:${id}`;
  }

  private heard(channel: string, message: Buffer): void {
    if (channel === this.requestChannel(this.instanceId)) {
      let req: WatchRequest;
      try {
        req = JSON.parse(message.toString('utf8')) as WatchRequest;
      } catch {
        return;
      }
      if (req.op === 'stop') this.release(req.id);
      else this.watch(req.id, req.spec, watchDecoders(req.decoders));
      return;
    }
    if (channel.startsWith(this.aboutChannel(''))) {
      const about = readAbout(message);
      if (about) this.watching.get(channel.slice(this.aboutChannel('').length))?.about(about);
      return;
    }
    const id = channel.slice(this.mediaChannel('').length);
    this.watching.get(id)?.media(message);
  }

  /** The owner's side: a watch from another instance, new or renewed. */
  private watch(id: string, spec: LiveStreamSpec, decoders: ReadonlySet<DecoderPrefix>): void {
    const served = this.served.get(id);
    if (served) {
      served.seen = Date.now();
      return;
    }
    if (!this.live || !this.gateway.get(spec.shipId)?.ready) return;
    const channel = this.mediaChannel(id);
    const lease = this.live.joinFor(spec, {
      decoders,
      relay: (about) => void this.cmd.publish(this.aboutChannel(id), JSON.stringify(about)),
      sendJson: () => undefined,
      consumer: {
        send: (data) => void this.cmd.publish(channel, Buffer.from(data.buffer, data.byteOffset, data.byteLength)),
        bufferedAmount: () => 0,
        drop: () => undefined,
      },
    });
    this.served.set(id, { lease, seen: Date.now() });
    this.log.info({ id, key: spec.key }, 'remote live: serving a watch from another instance');
  }

  private release(id: string): void {
    const served = this.served.get(id);
    if (!served) return;
    this.served.delete(id);
    served.lease.release();
  }

  /** One owner look-up at a time for the ships whose streams wait offline here. */
  private following = false;
  private followOffline(): void {
    const ships = this.live?.offlineShips().filter((shipId) => !this.gateway.get(shipId)) ?? [];
    if (this.following || ships.length === 0) return;
    this.following = true;
    void Promise.all(ships.map((shipId) => this.followShip(shipId))).finally(() => (this.following = false));
  }

  private dropSilent(): void {
    const before = Date.now() - this.heartbeatMs * 3;
    for (const [id, s] of this.served) if (s.seen < before) this.release(id);
  }

  /**
   * The watching side: a `live` stream whose bytes come from the ship's owner. When the ship moves
   * to another instance (its agent reconnected there, say because the owner died), the watch
   * follows it at the next heartbeat under a new id and channel, so no byte of the old owner can
   * mix with the new one's: the new owner's init and GOP reach this source like a definition
   * switch, without waiting for the source's retry.
   */
  private remoteStream(spec: LiveStreamSpec, handler: LiveStreamHandler, decoders: ReadonlySet<DecoderPrefix> | undefined): LinkStream<'live'> {
    let id = randomUUID();
    let open = true;
    let owner: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let first = true;
    // The source names its stream by a number; remote streams have none on any link.
    const streamId = 0;
    const { gateway } = this;
    const request = (instanceId: string, req: WatchRequest) => this.cmd.publish(this.requestChannel(instanceId), JSON.stringify(req));
    const end = (reason: string) => {
      if (!open) return;
      stop();
      handler.message({ type: 'live.ended', streamId, reason });
    };
    const listen = async () => {
      this.watching.set(id, {
        media: (payload) => {
          if (first) handler.message({ type: 'live.started', streamId });
          first = false;
          handler.data?.(payload);
        },
        // Before each init: the stream (re)starts at the owner as the owner asked it, with what the ship said.
        about: (about) => {
          this.relayedEncodes.set(spec.shipId, about.encodes);
          handler.relayed?.(about);
          handler.message({
            type: 'live.started',
            streamId,
            ...(about.cameraCodec ? { cameraCodec: about.cameraCodec } : {}),
            ...(about.transcoded !== undefined ? { transcoded: about.transcoded } : {}),
          });
          first = false;
        },
      });
      await this.sub.subscribe(this.aboutChannel(id), this.mediaChannel(id));
    };
    const forget = (watchId: string, ownerId: string | undefined) => {
      this.watching.delete(watchId);
      void this.sub.unsubscribe(this.aboutChannel(watchId), this.mediaChannel(watchId));
      if (ownerId) void request(ownerId, { op: 'stop', id: watchId }).catch(() => undefined);
    };
    const renew = async () => {
      const now = await this.ownership.ownerOf(spec.shipId);
      if (!open) return;
      if (!now || now.instanceId === this.instanceId) return end('the ship is not connected to any instance');
      if (owner !== undefined && now.instanceId !== owner) {
        this.log.info({ id, from: owner, to: now.instanceId }, 'remote live: the ship moved; watching through its new owner');
        forget(id, owner);
        id = randomUUID();
        // The new owner's stream begins with its own init and times: the source hears it start.
        first = true;
        await listen();
        if (!open) return forget(id, undefined);
      }
      owner = now.instanceId;
      await request(owner, { op: 'watch', id, spec, ...(decoders ? { decoders: [...decoders] } : {}) });
    };
    const stop = () => {
      if (!open) return;
      open = false;
      clearInterval(timer);
      forget(id, owner);
    };
    const start = async () => {
      await listen();
      await renew();
      // One renewal at a time: two at once could both see the move and follow it twice.
      let renewing = false;
      timer = setInterval(() => {
        if (renewing) return;
        renewing = true;
        renew()
          .catch((err: unknown) => this.log.warn({ err, id }, 'remote live: renewing a watch failed'))
          .finally(() => (renewing = false));
      }, this.heartbeatMs);
    };
    return {
      shipId: spec.shipId,
      kind: 'live',
      id: streamId,
      // Once the ship's link is here, the relay is done: the source asks the link itself at once.
      get open() {
        return open && !gateway.get(spec.shipId)?.ready;
      },
      send: (msg) => {
        if (msg.type === 'live.start') {
          start().catch((err: unknown) => {
            this.log.warn({ err, id }, 'remote live: asking the owner failed');
            end('the owner could not be asked');
          });
        } else stop();
      },
      sendBinary: () => {
        throw new Error('a live stream carries no bytes down');
      },
      close: stop,
    };
  }
}
