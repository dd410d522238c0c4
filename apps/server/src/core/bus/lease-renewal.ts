import type { Redis } from 'ioredis';

/** One lease to renew: its key, the value that says it is still ours, and when it was last renewed. */
export interface RenewableLease {
  key: string;
  token: string;
  held: { renewedAt: number };
  /** More keys and arguments for the script, after the lease's own (KEYS[2]…, ARGV[3]…). */
  more?: { keys: string[]; args: (string | number)[] };
}

/**
 * What became of a lease: `kept` (renewed, or set again when the script found it lapsed and still
 * free to take back — it answered 2: `reasserted`; `renewedAt` moved on), `taken` (the key no
 * longer holds our token), `waiting` (Redis did not answer: a stall or an outage, which takes no
 * claim away since nobody else can claim meanwhile; the next renewal tries again).
 */
export type LeaseVerdict = { kind: 'kept'; reasserted?: true } | { kind: 'taken' } | { kind: 'waiting' };

/**
 * Renews every lease in one pipelined round trip with `script` (KEYS[1] the key, ARGV[1] the token,
 * ARGV[2] the lease in ms, then the lease's `more`; it answers 1 when the key was still ours and
 * extended, 2 when it set it again). Shared by ship ownership and talkback occupancy.
 */
export async function renewLeases(redis: Redis, script: string, leases: readonly RenewableLease[], leaseMs: number): Promise<LeaseVerdict[]> {
  if (leases.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const lease of leases) {
    const more = lease.more ?? { keys: [], args: [] };
    pipeline.eval(script, 1 + more.keys.length, lease.key, ...more.keys, lease.token, leaseMs, ...more.args);
  }
  const now = Date.now();
  let results: [Error | null, unknown][] | null;
  try {
    results = await pipeline.exec();
  } catch {
    results = null;
  }
  return leases.map((lease, i) => {
    const [err, kept] = results?.[i] ?? [new Error('no answer'), 0];
    if (!err && (Number(kept) === 1 || Number(kept) === 2)) {
      lease.held.renewedAt = now;
      return Number(kept) === 2 ? { kind: 'kept', reasserted: true } : { kind: 'kept' };
    }
    return err ? { kind: 'waiting' } : { kind: 'taken' };
  });
}
