import { BUDGET_PURPOSES, type BudgetPurpose, type LinkPurpose } from '@ship-cctv/protocol';
import type { UsageIncrement } from './repo.ts';

/** Reads this instance's link counters (both directions) for a ship and purpose: monotonic totals. */
export type LinkCounterReader = (shipId: string, direction: 'up' | 'down', purpose: LinkPurpose) => number;

/**
 * Turns this instance's link-byte counters (the ones /metrics shows) into increments by ship day:
 * each tick takes what every counter grew by since the last one. Each instance counts only the
 * links it holds, so the increments of all instances add up to the ship's whole use, whichever
 * instance held its link when.
 */
export class UsageRecorder {
  /** Counter totals already handed out, by ship and purpose. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly read: LinkCounterReader) {}

  /**
   * What grew since the last call, for the ships given (those with a link here now) and any ship
   * counted before (its last bytes after its link left). `dayOf` names the ship's current day.
   */
  take(shipIds: Iterable<string>, dayOf: (shipId: string) => string): UsageIncrement[] {
    const ships = new Set(shipIds);
    for (const key of this.seen.keys()) ships.add(key.slice(0, key.indexOf('\u0000')));
    const out: UsageIncrement[] = [];
    for (const shipId of ships) {
      for (const purpose of BUDGET_PURPOSES) {
        const total = this.read(shipId, 'up', purpose) + this.read(shipId, 'down', purpose);
        const key = `${shipId}\u0000${purpose}`;
        const before = this.seen.get(key) ?? 0;
        // Counters never go down within a process; a smaller figure would be a reset: count it from zero.
        const grown = total >= before ? total - before : total;
        this.seen.set(key, total);
        if (grown > 0) out.push({ shipId, day: dayOf(shipId), purpose: purpose as BudgetPurpose, bytes: grown });
      }
    }
    return out;
  }

  /** Ships counted before (their last bytes may still come after their link left). */
  ships(): string[] {
    return [...new Set([...this.seen.keys()].map((key) => key.slice(0, key.indexOf('\u0000'))))];
  }

  /** Hands increments back after a failed write, so the next tick carries them. */
  giveBack(increments: readonly UsageIncrement[]): void {
    for (const i of increments) {
      const key = `${i.shipId}\u0000${i.purpose}`;
      this.seen.set(key, (this.seen.get(key) ?? 0) - i.bytes);
    }
  }
}
