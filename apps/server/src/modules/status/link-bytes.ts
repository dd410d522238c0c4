import { LINK_PURPOSES, type LinkPurpose, type LinkPurposeFigures } from '@ship-cctv/protocol';

export type LinkDirection = 'up' | 'down';

/** Bytes counted so far on a ship's link in one direction for one purpose (the metrics counter). */
export type LinkTotalReader = (shipId: string, direction: LinkDirection, purpose: LinkPurpose) => number;

export interface LinkTotals {
  up: LinkPurposeFigures;
  down: LinkPurposeFigures;
}

export interface LinkFigures extends LinkTotals {
  /** Bytes per second since the oldest reading within the window; null without such a reading. */
  upRate: LinkPurposeFigures | null;
  downRate: LinkPurposeFigures | null;
}

interface Reading extends LinkTotals {
  at: number;
}

function figures(fn: (purpose: LinkPurpose) => number): LinkPurposeFigures {
  const out = { control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 };
  for (const purpose of LINK_PURPOSES) out[purpose] = fn(purpose);
  return out;
}

export interface LinkRateOptions {
  /** How far back the rate looks. */
  windowMs?: number;
  /** Readings closer together than this give no rate (too little time to mean anything). */
  minSpanMs?: number;
  now?: () => number;
}

/**
 * Recent readings of ships' link counters, so the statistics can say how fast bytes cross a link
 * now and not only how many crossed since the server started. The caller reads the connected
 * ships every few seconds (`sample`); a ship that went away is still read until its window shows
 * its link idle, so its rate falls to zero rather than vanishing.
 */
export class LinkRateSampler {
  private readonly readings = new Map<string, Reading[]>();
  private readonly windowMs: number;
  private readonly minSpanMs: number;
  private readonly now: () => number;

  constructor(
    private readonly read: LinkTotalReader,
    opts: LinkRateOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? 10_000;
    this.minSpanMs = opts.minSpanMs ?? 1_000;
    this.now = opts.now ?? Date.now;
  }

  get windowSeconds(): number {
    return this.windowMs / 1000;
  }

  totals(shipId: string): LinkTotals {
    return {
      up: figures((purpose) => this.read(shipId, 'up', purpose)),
      down: figures((purpose) => this.read(shipId, 'down', purpose)),
    };
  }

  /** Takes a reading of each connected ship, and of ships still in their window after leaving. */
  sample(connectedShipIds: Iterable<string>): void {
    const at = this.now();
    const connected = new Set(connectedShipIds);
    for (const shipId of new Set([...connected, ...this.readings.keys()])) {
      const reading: Reading = { at, ...this.totals(shipId) };
      const kept = (this.readings.get(shipId) ?? []).filter((r) => at - r.at <= this.windowMs);
      const oldest = kept[0];
      if (!connected.has(shipId) && oldest && at - oldest.at >= this.windowMs - this.minSpanMs && sameTotals(oldest, reading)) {
        this.readings.delete(shipId); // gone, and idle over the whole window: its rate is zero now
        continue;
      }
      kept.push(reading);
      this.readings.set(shipId, kept);
    }
  }

  /** Totals now, and the rate against the oldest reading within the window. */
  figures(shipId: string, connected: boolean): LinkFigures {
    const at = this.now();
    const current = this.totals(shipId);
    const base = (this.readings.get(shipId) ?? []).find((r) => at - r.at <= this.windowMs && at - r.at >= this.minSpanMs);
    if (!base) {
      // Nothing read within the window: a ship that is not connected sends nothing, so zero; a
      // ship that has just connected has no reading to compare against yet.
      const tracked = this.readings.has(shipId);
      const zero = connected || tracked ? null : figures(() => 0);
      return { ...current, upRate: zero, downRate: zero };
    }
    const seconds = (at - base.at) / 1000;
    const rate = (direction: LinkDirection) => figures((purpose) => Math.max(current[direction][purpose] - base[direction][purpose], 0) / seconds);
    return { ...current, upRate: rate('up'), downRate: rate('down') };
  }
}

function sameTotals(a: LinkTotals, b: LinkTotals): boolean {
  return LINK_PURPOSES.every((p) => a.up[p] === b.up[p] && a.down[p] === b.down[p]);
}
