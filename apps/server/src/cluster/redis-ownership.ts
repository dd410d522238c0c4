import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { renewLeases } from './lease-renewal.ts';
import type { OwnershipEvents, ShipOwner, ShipOwnership } from './ownership.ts';

/** Takes a ship: a new epoch from the ship's counter, the owner key with a lease, and word to the old owner. */
const CLAIM = `
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. epoch, 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4] .. ' ' .. epoch .. ' ' .. ARGV[1])
return epoch`;
/** Extends the lease if the key is still this claim's (0: it is not, the ship was lost). */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
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
 * and stops serving the ship; an owner that cannot renew its lease in time (Redis unreachable, key
 * taken) gives the ship up as well, so a stale owner never serves a ship it lost.
 */
export class RedisOwnership implements ShipOwnership {
  readonly events = new EventEmitter<OwnershipEvents>();
  readonly instanceId: string;
  private readonly held = new Map<string, Held>();
  private readonly channel: string;
  private readonly leaseMs: number;
  private readonly timer: NodeJS.Timeout;

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

  async claim(shipId: string): Promise<ShipOwner> {
    const epoch = Number(await this.cmd.eval(CLAIM, 2, this.ownerKey(shipId), `${this.prefix}owner-epoch:${shipId}`, this.instanceId, this.leaseMs, this.channel, shipId));
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
    const held = this.held.get(shipId);
    if (held && held.epoch < epoch) this.lose(shipId, held.epoch, `claimed by instance ${instanceId} at epoch ${epoch}`);
  }

  private lose(shipId: string, epoch: number, why: string): void {
    if (this.held.get(shipId)?.epoch !== epoch) return;
    this.held.delete(shipId);
    this.events.emit('lost', shipId, epoch, why);
  }

  private async renew(): Promise<void> {
    const held = [...this.held.entries()];
    const verdicts = await renewLeases(this.cmd, RENEW, held.map(([shipId, h]) => ({ key: this.ownerKey(shipId), token: h.value, held: h })), this.leaseMs);
    held.forEach(([shipId, h], i) => {
      const verdict = verdicts[i];
      if (verdict?.kind === 'taken') this.lose(shipId, h.epoch, 'the lease was taken or expired');
      else if (verdict?.kind === 'unreachable') this.lose(shipId, h.epoch, `the lease could not be renewed: ${verdict.message}`);
    });
  }
}
