import type { BudgetCaps, BudgetPolicy, BudgetPurpose, LiveBudgetState, PurposeCap, PurposeUse } from '@ship-cctv/protocol';

/** A budget's megabytes are 10^6 bytes, as links are billed. */
export const BYTES_PER_MB = 1_000_000;

/** Fraction of a cap at which operators are told (once per period). */
export const WARN_FRACTION = 0.8;

export const capBytes = (mb: number | null | undefined): number | null => (mb === null || mb === undefined ? null : Math.round(mb * BYTES_PER_MB));

/** 0, 80 or 100 for bytes against a cap (no cap: 0). */
export function levelOf(bytes: number, cap: number | null): 0 | 80 | 100 {
  if (cap === null) return 0;
  if (bytes >= cap) return 100;
  return bytes >= cap * WARN_FRACTION ? 80 : 0;
}

/** One purpose's figures against its caps; the level is the higher of the day's and the month's. */
export function purposeUse(cap: PurposeCap | undefined, dayBytes: number, monthBytes: number): PurposeUse {
  const dayCapBytes = capBytes(cap?.dayMb ?? null);
  const monthCapBytes = capBytes(cap?.monthMb ?? null);
  const level = Math.max(levelOf(dayBytes, dayCapBytes), levelOf(monthBytes, monthCapBytes)) as 0 | 80 | 100;
  return { dayBytes, monthBytes, dayCapBytes, monthCapBytes, level };
}

export type Usage = Record<BudgetPurpose, { day: number; month: number }>;

export const emptyUsage = (): Usage => ({ live: { day: 0, month: 0 }, playback: { day: 0, month: 0 }, pictures: { day: 0, month: 0 }, backfill: { day: 0, month: 0 }, events: { day: 0, month: 0 } });

export function useOf(caps: BudgetCaps | undefined, usage: Usage): Record<BudgetPurpose, PurposeUse> {
  return {
    live: purposeUse(caps?.live, usage.live.day, usage.live.month),
    playback: purposeUse(caps?.playback, usage.playback.day, usage.playback.month),
    pictures: purposeUse(caps?.pictures, usage.pictures.day, usage.pictures.month),
    backfill: purposeUse(caps?.backfill, usage.backfill.day, usage.backfill.month),
    events: purposeUse(caps?.events, usage.events.day, usage.events.month),
  };
}

/** What new live views of the ship get: the policy once the live budget (day or month) is used up. */
export function liveState(policy: BudgetPolicy | null, live: PurposeUse, overridden: boolean): LiveBudgetState {
  if (policy === null || live.level < 100) return 'normal';
  if (policy === 'block' && overridden) return 'override';
  return policy;
}

export interface Crossing {
  purpose: BudgetPurpose;
  period: 'day' | 'month';
  level: 80 | 100;
  usedBytes: number;
  capBytes: number;
}

/** Every level reached in each period (80 and 100 both once 100 is reached): candidates for a notice. */
export function crossings(use: Record<BudgetPurpose, PurposeUse>): Crossing[] {
  const out: Crossing[] = [];
  for (const purpose of Object.keys(use) as BudgetPurpose[]) {
    const u = use[purpose];
    for (const [period, used, cap] of [
      ['day', u.dayBytes, u.dayCapBytes],
      ['month', u.monthBytes, u.monthCapBytes],
    ] as const) {
      if (cap === null) continue;
      const level = levelOf(used, cap);
      if (level >= 80) out.push({ purpose, period, level: 80, usedBytes: used, capBytes: cap });
      if (level === 100) out.push({ purpose, period, level: 100, usedBytes: used, capBytes: cap });
    }
  }
  return out;
}
