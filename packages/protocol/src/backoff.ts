export interface BackoffRange {
  minMs: number;
  maxMs: number;
}

/**
 * Delay before retry `attempt` (0-based): minMs doubling up to maxMs, less up to a fifth at random
 * so a wall of players, or a fleet of agents, does not hit a restarted server in the same instant.
 * The one backoff rule of the player, the agent and the server.
 */
export function backoffDelay(attempt: number, range: BackoffRange, random: number = Math.random()): number {
  const base = Math.min(range.maxMs, range.minMs * 2 ** Math.max(0, attempt));
  return Math.max(range.minMs, Math.round(base * (1 - 0.2 * random)));
}

/**
 * Delay before an agent dials shore again after `attempt` failed dials (0-based): when shore's
 * refusal named a time (`retryAfterMs`), that time and up to a fifth more at random — shore already
 * spread the refused ships, the random part keeps the ones it named the same time apart; otherwise
 * the jittered backoff (backoffDelay).
 */
export function redialDelay(attempt: number, range: BackoffRange, retryAfterMs?: number, random: number = Math.random()): number {
  if (retryAfterMs !== undefined) return Math.round(retryAfterMs * (1 + 0.2 * random));
  return backoffDelay(attempt, range, random);
}

/**
 * Close code shore sends its agents' links when it stops on purpose (a restart, an upgrade, a scale
 * down): 1012, "service restart". Agents also take 1001 ("going away", what earlier shores sent) so.
 */
export const CLOSE_SHORE_RESTART = 1012;

/** Whether a link's close code says shore went away on purpose and is expected back (or elsewhere) soon. */
export function isShoreRestart(code: number): boolean {
  return code === CLOSE_SHORE_RESTART || code === 1001;
}

/**
 * How an agent redials after shore said it is restarting: every 1–5 s (jittered) for two minutes, then its
 * usual backoff. A restart takes its instances away for tens of seconds; with the usual backoff
 * (up to 30 s) a ship whose dial landed just before they were back would wait up to 30 s more, which
 * alone put a restarted fleet of 5,000 over a minute. A dial to a shore still down costs the ship a
 * refused connection (through a balancer, a TLS handshake and a 503, a few kB); admission spreads
 * the ships that arrive together once it is up.
 */
export const SHORE_RESTART_BACKOFF: BackoffRange & { forMs: number } = { minMs: 1_000, maxMs: 5_000, forMs: 120_000 };

/**
 * Redial timing of an agent's link: its usual backoff, shortened to SHORE_RESTART_BACKOFF for a while
 * after shore closed the link saying it restarts. Only a welcome ends the backoff (`welcomed`).
 */
export class RedialPlan {
  private attempt = 0;
  private restartUntil = 0;

  constructor(private readonly range: BackoffRange) {}

  /** Shore took the hello: the next loss starts from the shortest delay again. */
  welcomed(): void {
    this.attempt = 0;
  }

  /** The link closed with `code`: the delay before the next dial (shore's retry-after first, when it named one). */
  closed(code: number, retryAfterMs?: number, now: number = Date.now(), random: number = Math.random()): number {
    if (isShoreRestart(code)) {
      this.restartUntil = now + SHORE_RESTART_BACKOFF.forMs;
      this.attempt = 0;
    }
    const range = now < this.restartUntil ? { minMs: Math.min(this.range.minMs, SHORE_RESTART_BACKOFF.minMs), maxMs: Math.min(this.range.maxMs, SHORE_RESTART_BACKOFF.maxMs) } : this.range;
    const delay = redialDelay(this.attempt, range, retryAfterMs, random);
    this.attempt += 1;
    return delay;
  }
}
