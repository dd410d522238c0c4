export interface DefinitionControllerOptions {
  /** Uplink queue (ms of sending waiting on the ship) above which the link is congested. */
  degradeAboveMs: number;
  /** Reports in a row above the mark before switching down (one report comes per second). */
  degradeAfterReports: number;
  /** Queue below which the link counts as clear. */
  restoreBelowMs: number;
  /** How long the link must stay clear before stepping back up; doubles after each relapse. */
  restoreAfterMs: number;
  maxRestoreAfterMs: number;
}

export const DEFAULT_DEFINITION_CONTROL: DefinitionControllerOptions = {
  degradeAboveMs: 1_500,
  degradeAfterReports: 2,
  restoreBelowMs: 250,
  restoreAfterMs: 30_000,
  maxRestoreAfterMs: 5 * 60_000,
};

export type DefinitionDecision = 'degrade' | 'restore' | undefined;

/**
 * Decides, from the ship's uplink queue reports, when its streams drop to the lowest definition
 * and when they step back up — with hysteresis, and a hold time that doubles each time the link
 * relapses soon after a restore, so a marginal link does not flap between definitions.
 */
export class DefinitionController {
  private degraded = false;
  private over = 0;
  private clearSince: number | undefined;
  private holdMs: number;
  private restoredAt: number | undefined;
  /** When the last report came: with none for the hold time, nothing measured the link since. */
  private reportedAt: number | undefined;

  constructor(private readonly opts: DefinitionControllerOptions = DEFAULT_DEFINITION_CONTROL) {
    this.holdMs = opts.restoreAfterMs;
  }

  get isDegraded(): boolean {
    return this.degraded;
  }

  /**
   * Whether a stream starting now should start at the lowest definition. A verdict nothing has
   * measured for the hold time (the ship's streams all stopped, nobody watched) is stale: the link
   * is judged afresh from the new stream instead of holding it at the lowest for the hold time. The
   * relapse memory (a doubled hold time) stays.
   */
  degradedForNewStream(now: number): boolean {
    if (this.degraded && this.reportedAt !== undefined && now - this.reportedAt >= this.holdMs) {
      this.degraded = false;
      this.over = 0;
      this.clearSince = undefined;
    }
    return this.degraded;
  }

  /**
   * The ship now carries less than it did when its link was judged congested (cells closed, a grid
   * made smaller): that verdict was about a heavier load, so the streams step back up at once and
   * the link is measured afresh. It counts as a restore: a relapse soon after doubles the hold.
   */
  judgeAfresh(now: number): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.over = 0;
    this.clearSince = undefined;
    this.restoredAt = now;
  }

  report(queuedMs: number, now: number): DefinitionDecision {
    this.reportedAt = now;
    if (!this.degraded) {
      this.over = queuedMs > this.opts.degradeAboveMs ? this.over + 1 : 0;
      if (this.over < this.opts.degradeAfterReports) return undefined;
      this.degraded = true;
      this.over = 0;
      this.clearSince = undefined;
      // A relapse soon after stepping up means the link is marginal: wait longer next time.
      if (this.restoredAt !== undefined && now - this.restoredAt < this.holdMs) {
        this.holdMs = Math.min(this.opts.maxRestoreAfterMs, this.holdMs * 2);
      }
      return 'degrade';
    }
    if (queuedMs >= this.opts.restoreBelowMs) {
      this.clearSince = undefined;
      return undefined;
    }
    this.clearSince ??= now;
    if (now - this.clearSince < this.holdMs) return undefined;
    this.degraded = false;
    this.restoredAt = now;
    this.clearSince = undefined;
    return 'restore';
  }
}
