import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { renewLeases } from '../bus/lease-renewal.ts';
import type { OwnershipEvents, ShipOwner, ShipOwnership } from './ownership.ts';

/** Takes a ship: a new epoch from the ship's counter, the owner key with a lease, and word to the old owner. */
const CLAIM = `
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. epoch, 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4] .. ' ' .. epoch .. ' ' .. ARGV[1])
return epoch`;
/**
 * Extends the lease if the key is still this claim's (1). A key that lapsed (Redis stalled or was
 * unreachable longer than the lease) is set again if no claim came since — the ship's epoch counter
 * still holds this claim's epoch, or was lost with Redis's data, then it is set back to it — (2).
 * 0: another instance claimed the ship, which is lost.
 */
const RENEW = `
local value = redis.call('GET', KEYS[1])
if value == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if value then return 0 end
local epoch = redis.call('GET', KEYS[2])
if epoch and epoch ~= ARGV[3] then return 0 end
if not epoch then redis.call('SET', KEYS[2], ARGV[3]) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 2`;
/** Deletes the owner key if it is still this claim's. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface RedisOwnershipOptions {
  /** How long a claim lives without renewal (default 10 s): a dead owner's ships are free after it. */
  leaseMs?: number | undefined;
  instanceId?: string | undefined;
  onError?: ((err: Error) => void) | undefined;
}

interface Held {
  epoch: number;
  value: string;
  renewedAt: number;
}

/**
 * Ship ownership in Redis. Per ship: `owner:<ship>` = "<instance> <epoch>" with a lease (PX),
 * renewed every third of it while the link lives, and `owner-epoch:<ship>`, a counter (INCR) that
 * fences: every claim gets a higher epoch and is published, so the previous owner hears it at once
 * and stops serving the ship; an owner whose key another claim took gives the ship up at its next
 * renewal as well (a claim it did not hear), so a stale owner never serves a ship it lost.
 *
 * Redis stalling or unreachable is not a reason to give ships up: only a ship's agent reconnecting
 * elsewhere makes another claim, and while Redis is away nobody can claim. The holder keeps its
 * links and keeps trying; once Redis answers, each renewal extends its key, or sets it again at the
 * same epoch if it lapsed meanwhile and no claim came since (the epoch counter says so), or finds a
 * newer claim and gives up that ship alone. So a stall drops no link, however long, and hands over
 * only the ships whose agents moved, each when its own claim lands.
 */
export class RedisOwnership implements ShipOwnership {
  readonly events = new EventEmitter<OwnershipEvents>();
  readonly instanceId: string;
  private readonly held = new Map<string, Held>();
  private readonly channel: string;
  private readonly leaseMs: number;
  private readonly timer: NodeJS.Timeout;
  /** A renewal is on its way (during a stall it waits for Redis; the next one waits for it). */
  private renewing = false;

  private constructor(
    private readonly cmd: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    opts: RedisOwnershipOptions,
  ) {
    this.instanceId = opts.instanceId ?? randomUUID();
    this.leaseMs = opts.leaseMs ?? 10_000;
    this.channel = `${prefix}ship-owner`;
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
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
    await sub.subscribe(ownership.channel);
    return ownership;
  }

  private ownerKey(shipId: string) {
    return `${this.prefix}owner:${shipId}`;
  }
  private epochKey(shipId: string) {
    return `${this.prefix}owner-epoch:${shipId}`;
  }

  async claim(shipId: string): Promise<ShipOwner> {
    const epoch = Number(await this.cmd.eval(CLAIM, 2, this.ownerKey(shipId), this.epochKey(shipId), this.instanceId, this.leaseMs, this.channel, shipId));
    const previous = this.held.get(shipId);
    // A newer claim may already have been heard (and fenced this one) while this one was on its way.
    if (!previous || previous.epoch < epoch) this.held.set(shipId, { epoch, value: `${this.instanceId} ${epoch}`, renewedAt: Date.now() });
    return { instanceId: this.instanceId, epoch };
  }

  async release(shipId: string): Promise<void> {
    const held = this.held.get(shipId);
    if (!held) return;
    this.held.delete(shipId);
    await this.cmd.eval(RELEASE, 1, this.ownerKey(shipId), held.value);
  }

  async ownerOf(shipId: string): Promise<ShipOwner | undefined> {
    const value = await this.cmd.get(this.ownerKey(shipId));
    const [instanceId, epoch] = value?.split(' ') ?? [];
    return instanceId && epoch ? { instanceId, epoch: Number(epoch) } : undefined;
  }

  /** How many ships this instance owns now. */
  get ownedCount(): number {
    return this.held.size;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.held.keys()].map((shipId) => this.release(shipId).catch(() => undefined)));
    this.cmd.disconnect();
    this.sub.disconnect();
  }

  /** Stops renewing without releasing, as a crashed instance would (tests). */
  abandon(): void {
    clearInterval(this.timer);
    this.held.clear();
    this.cmd.disconnect();
    this.sub.disconnect();
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

  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      const held = [...this.held.entries()];
      const leases = held.map(([shipId, h]) => ({ key: this.ownerKey(shipId), token: h.value, held: h, more: { keys: [this.epochKey(shipId)], args: [String(h.epoch)] } }));
      const verdicts = await renewLeases(this.cmd, RENEW, leases, this.leaseMs);
      held.forEach(([shipId, h], i) => {
        const verdict = verdicts[i];
        if (verdict?.kind === 'taken') this.lose(shipId, h.epoch, 'another instance claimed the ship');
        else if (verdict?.kind === 'kept' && verdict.reasserted) this.events.emit('reasserted', shipId, h.epoch);
      });
    } finally {
      this.renewing = false;
    }
  }
}
