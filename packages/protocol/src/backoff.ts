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
