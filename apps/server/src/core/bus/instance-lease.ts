import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Sets the instance's key with its lease and says whether it was still there with this token (1)
 * or had to be set again (2: it lapsed — Redis stalled or was unreachable longer than the lease —
 * or Redis lost its data).
 */
const RENEW = `
local was = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if was == ARGV[1] then return 1 end
return 2`;

/** Where instances' lease keys live: `<prefix>instance:<instance id>`. */
export function instanceKeyPrefix(prefix: string): string {
  return `${prefix}instance:`;
}

export interface InstanceLeaseEvents {
  /** The lease had lapsed and is set again: what hangs on it (claims, status) may need writing again. */
  restored: [];
}

/**
 * One instance's liveness in Redis: a key with a lease, renewed every third of it. Whatever the
 * instance holds in Redis (ships' claims, their status) names the instance and counts while this
 * key lives, so it needs no expiry or renewal of its own: one write a period per instance, not one
 * per ship. A stopped instance deletes its key; a dead one's key lapses after the lease.
 */
export class InstanceLease {
  readonly events = new EventEmitter<InstanceLeaseEvents>();
  readonly key: string;
  /** Tells this run of the instance from an earlier one that had the same id. */
  private readonly token = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  /** When the lease was last set (ms since the epoch), 0 before the first time. */
  renewedAt = 0;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    readonly instanceId: string,
    readonly leaseMs: number,
  ) {
    this.key = instanceKeyPrefix(prefix) + instanceId;
  }

  /** The prefix of every instance's key (an owner's key is this and its instance id). */
  get keyPrefix(): string {
    return this.key.slice(0, this.key.length - this.instanceId.length);
  }

  /** Sets the lease and keeps renewing it. */
  async start(): Promise<void> {
    await this.redis.eval(RENEW, 1, this.key, this.token, this.leaseMs);
    this.renewedAt = Date.now();
    this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  /** Stops renewing; `release` deletes the key at once (a clean stop), otherwise it lapses (a crash, in tests). */
  async stop(release: boolean): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (release) await this.redis.del(this.key).catch(() => undefined);
  }

  private async renew(): Promise<void> {
    // During a stall the renewal waits for Redis; the next ones wait for it.
    if (this.renewing) return;
    this.renewing = true;
    try {
      const answer = Number(await this.redis.eval(RENEW, 1, this.key, this.token, this.leaseMs));
      this.renewedAt = Date.now();
      if (answer === 2 && this.timer) this.events.emit('restored');
    } catch {
      // Redis away: the next renewal tries again. Nothing this instance holds is given up for it.
    } finally {
      this.renewing = false;
    }
  }
}
