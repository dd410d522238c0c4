import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { OwnershipEvents, ShipOwner, ShipOwnership } from './ownership.ts';
import { InstanceLease } from '../bus/instance-lease.ts';

/** Takes a ship: a new epoch from the ship's counter, the owner key naming this instance (no expiry of its own), and word to the old owner. */
const CLAIM = `
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. epoch)
redis.call('PUBLISH', ARGV[2], ARGV[3] .. ' ' .. epoch .. ' ' .. ARGV[1])
return epoch`;
/**
 * Checks a held claim (1: still ours). A claim that vanished (Redis lost its data) is set again if
 * no claim came since — the ship's epoch counter still holds this claim's epoch, or was lost with
 * the rest, then it is set back to it — (2). 0: another instance claimed the ship, which is lost.
 */
const REASSERT = `
local value = redis.call('GET', KEYS[1])
if value == ARGV[1] then return 1 end
if value then return 0 end
local epoch = redis.call('GET', KEYS[2])
if epoch and epoch ~= ARGV[2] then return 0 end
if not epoch then redis.call('SET', KEYS[2], ARGV[2]) end
redis.call('SET', KEYS[1], ARGV[1])
return 2`;
/** Deletes the owner key if it is still this claim's. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
/**
 * The owner key's value if the instance it names is alive (its lease key exists), else nothing.
 * The lease key is known only once the owner key is read, so it is named from ARGV: fine on one
 * Redis (or a primary and its replicas); a Redis Cluster would need both keys in one hash slot.
 */
const OWNER_OF = `
local value = redis.call('GET', KEYS[1])
if not value then return false end
local instance = string.match(value, '^(%S+) ')
if instance and redis.call('EXISTS', ARGV[1] .. instance) == 1 then return value end
return false`;

export interface RedisOwnershipOptions {
  /**
   * How long this instance's lease lives without renewal (default 10 s; renewed every third of it):
   * a dead instance's ships have no owner after it. Ships' claims have no lease of their own.
   */
  leaseMs?: number | undefined;
  /**
   * How often every held claim is read back (default 60 s; one MGET per 1,000 ships): an owner that
   * missed the news of a newer claim (its subscriber reconnecting) gives the ship up by then at the latest.
   */
  verifyMs?: number | undefined;
  instanceId?: string | undefined;
  onError?: ((err: Error) => void) | undefined;
}

interface Held {
  epoch: number;
  value: string;
}

const VERIFY_CHUNK = 1_000;

/**
 * Ship ownership in Redis with one lease per instance. Per instance: `instance:<id>`, a key with a
 * lease (PX) renewed every third of it — the only periodic write, whatever the number of ships.
 * Per ship: `owner:<ship>` = "<instance> <epoch>", without expiry, and `owner-epoch:<ship>`, a
 * counter (INCR) that fences: every claim gets a higher epoch and is published, so the previous
 * owner hears it at once and stops serving the ship. A claim counts while the instance it names
 * is alive: `ownerOf` answers nothing for a ship whose owner's lease lapsed (it died), and its
 * ships are taken by whichever instance their agents reach. An owner reads its claims back now and
 * then (one MGET per thousand ships), and after its subscriber reconnects, so a claim it did not
 * hear fences it too: a stale owner never serves a ship it lost for long.
 *
 * Redis stalling or unreachable is not a reason to give ships up: only a ship's agent reconnecting
 * elsewhere makes another claim, and while Redis is away nobody can claim. The holder keeps its
 * links; once Redis answers, the instance lease is set again (if it lapsed meanwhile, the holder
 * reads every claim back: each is still its own, or vanished with Redis's data and is set again at
 * the same epoch when no claim came since, or a newer claim took it and that ship alone is given
 * up). So a stall drops no link, however long, and hands over only the ships whose agents moved.
 */
export class RedisOwnership implements ShipOwnership {
  readonly events = new EventEmitter<OwnershipEvents>();
  readonly instanceId: string;
  readonly lease: InstanceLease;
  private readonly held = new Map<string, Held>();
  private readonly channel: string;
  private readonly verifyTimer: NodeJS.Timeout;
  private verifying: Promise<void> | undefined;
  private subscribedOnce = false;

  private constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    opts: RedisOwnershipOptions,
  ) {
    this.instanceId = opts.instanceId ?? randomUUID();
    this.channel = `${prefix}ship-owner`;
    this.lease = new InstanceLease(cmd, prefix, this.instanceId, opts.leaseMs ?? 10_000);
    // A lease that lapsed (a long stall, or Redis restarted empty): the claims may have gone with it.
    this.lease.events.on('restored', () => void this.verify().then(() => this.events.emit('restored')));
    this.verifyTimer = setInterval(() => void this.verify(), opts.verifyMs ?? 60_000);
    this.verifyTimer.unref();
  }

  static async connect(url: string, prefix = 'shipcctv:', opts: RedisOwnershipOptions = {}): Promise<RedisOwnership> {
    const onError = opts.onError ?? (() => undefined);
    const cmd = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    cmd.on('error', onError);
    sub.on('error', onError);
    const ownership = new RedisOwnership(cmd, sub, prefix, opts);
    await cmd.connect();
    await sub.connect();
    sub.on('message', (channel: string, message: string) => {
      if (channel === ownership.channel) ownership.heard(message);
    });
    // News published while the subscriber was away is not heard: read the claims back instead.
    sub.on('ready', () => {
      if (ownership.subscribedOnce) void ownership.verify();
    });
    await sub.subscribe(ownership.channel);
    ownership.subscribedOnce = true;
    await ownership.lease.start();
    return ownership;
  }

  private ownerKey(shipId: string) {
    return `${this.prefix}owner:${shipId}`;
  }
  private epochKey(shipId: string) {
    return `${this.prefix}owner-epoch:${shipId}`;
  }

  async claim(shipId: string): Promise<ShipOwner> {
    const epoch = Number(await this.cmd.eval(CLAIM, 2, this.ownerKey(shipId), this.epochKey(shipId), this.instanceId, this.channel, shipId));
    const previous = this.held.get(shipId);
    // A newer claim may already have been heard (and fenced this one) while this one was on its way.
    if (!previous || previous.epoch < epoch) this.held.set(shipId, { epoch, value: `${this.instanceId} ${epoch}` });
    return { instanceId: this.instanceId, epoch };
  }

  async release(shipId: string): Promise<void> {
    const held = this.held.get(shipId);
    if (!held) return;
    this.held.delete(shipId);
    await this.cmd.eval(RELEASE, 1, this.ownerKey(shipId), held.value);
  }

  async ownerOf(shipId: string): Promise<ShipOwner | undefined> {
    const value = (await this.cmd.eval(OWNER_OF, 1, this.ownerKey(shipId), this.lease.keyPrefix)) as string | null;
    const [instanceId, epoch] = value?.split(' ') ?? [];
    return instanceId && epoch ? { instanceId, epoch: Number(epoch) } : undefined;
  }

  /** How many ships this instance owns now. */
  get ownedCount(): number {
    return this.held.size;
  }

  async close(): Promise<void> {
    clearInterval(this.verifyTimer);
    const held = [...this.held.entries()];
    this.held.clear();
    if (held.length > 0) {
      const pipeline = this.cmd.pipeline();
      for (const [shipId, h] of held) pipeline.eval(RELEASE, 1, this.ownerKey(shipId), h.value);
      await pipeline.exec().catch(() => undefined);
    }
    await this.lease.stop(true);
    this.cmd.disconnect();
    this.sub.disconnect();
  }

  /** Stops renewing without releasing, as a crashed instance would (tests). */
  abandon(): void {
    clearInterval(this.verifyTimer);
    void this.lease.stop(false);
    this.held.clear();
    this.cmd.disconnect();
    this.sub.disconnect();
  }

  /** Reads every held claim back; one at a time (a stall makes the next wait for this one). */
  verify(): Promise<void> {
    this.verifying ??= this.readBack().finally(() => (this.verifying = undefined));
    return this.verifying;
  }

  private heard(message: string): void {
    const [shipId, epochText, instanceId] = message.split(' ');
    const epoch = Number(epochText);
    if (!shipId || !instanceId || !Number.isFinite(epoch)) return;
    // This instance's own newer claim (a new link of the ship here) replaces the older one in claim().
    if (instanceId === this.instanceId) return;
    const held = this.held.get(shipId);
    if (held && held.epoch < epoch) this.lose(shipId, held.epoch, `claimed by instance ${instanceId} at epoch ${epoch}`);
    this.events.emit('claimedElsewhere', shipId, { instanceId, epoch });
  }

  private lose(shipId: string, epoch: number, why: string): void {
    if (this.held.get(shipId)?.epoch !== epoch) return;
    this.held.delete(shipId);
    this.events.emit('lost', shipId, epoch, why);
  }

  private async readBack(): Promise<void> {
    const held = [...this.held.entries()];
    for (let i = 0; i < held.length; i += VERIFY_CHUNK) {
      const chunk = held.slice(i, i + VERIFY_CHUNK);
      let values: (string | null)[];
      try {
        values = await this.cmd.mget(...chunk.map(([shipId]) => this.ownerKey(shipId)));
      } catch {
        return; // Redis away: nobody can claim meanwhile; the next read-back tries again.
      }
      const vanished: [string, Held][] = [];
      chunk.forEach(([shipId, h], k) => {
        const value = values[k];
        if (value === h.value) return;
        if (value) this.lose(shipId, h.epoch, `another instance claimed the ship (${value})`);
        else if (this.held.get(shipId) === h) vanished.push([shipId, h]);
      });
      if (vanished.length > 0) await this.reassert(vanished);
    }
  }

  /** Sets claims that vanished (Redis lost its data) back at their epoch, unless a newer claim came. */
  private async reassert(vanished: readonly [string, Held][]): Promise<void> {
    const pipeline = this.cmd.pipeline();
    for (const [shipId, h] of vanished) pipeline.eval(REASSERT, 2, this.ownerKey(shipId), this.epochKey(shipId), h.value, String(h.epoch));
    const results = await pipeline.exec().catch(() => null);
    vanished.forEach(([shipId, h], i) => {
      const [err, verdict] = results?.[i] ?? [new Error('no answer'), 0];
      if (err) return;
      if (Number(verdict) === 0) this.lose(shipId, h.epoch, 'another instance claimed the ship');
      else if (Number(verdict) === 2 && this.held.get(shipId) === h) this.events.emit('reasserted', shipId, h.epoch);
    });
  }
}
