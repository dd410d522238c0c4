import type { Redis } from 'ioredis';

/** One lease to renew: its key, the value that says it is still ours, and when it was last renewed. */
export interface RenewableLease {
  key: string;
  token: string;
  held: { renewedAt: number };
}

/**
 * What became of a lease: `kept` (renewed; `renewedAt` moved on), `taken` (the key no longer holds
 * our token), `unreachable` (Redis did not answer for 80 % of a lease: the claim may lapse for the
 * others any moment, so the holder gives it up before it surely has), `waiting` (no answer yet,
 * still time to try again).
 */
export type LeaseVerdict = { kind: 'kept' } | { kind: 'taken' } | { kind: 'unreachable'; message: string } | { kind: 'waiting' };

/**
 * Renews every lease in one pipelined round trip with `script` (KEYS[1] the key, ARGV[1] the token,
 * ARGV[2] the lease in ms; it answers 1 when the key was still ours and extended). Shared by ship
 * ownership and talkback occupancy, whose leases differ only in what the token is.
 */
export async function renewLeases(redis: Redis, script: string, leases: readonly RenewableLease[], leaseMs: number): Promise<LeaseVerdict[]> {
  if (leases.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const lease of leases) pipeline.eval(script, 1, lease.key, lease.token, leaseMs);
  const now = Date.now();
  let results: [Error | null, unknown][] | null;
  try {
    results = await pipeline.exec();
  } catch {
    results = null;
  }
  return leases.map((lease, i) => {
    const [err, kept] = results?.[i] ?? [new Error('no answer'), 0];
    if (!err && Number(kept) === 1) {
      lease.held.renewedAt = now;
      return { kind: 'kept' };
    }
    if (!err) return { kind: 'taken' };
    return now - lease.held.renewedAt >= leaseMs * 0.8 ? { kind: 'unreachable', message: err.message } : { kind: 'waiting' };
  });
}
