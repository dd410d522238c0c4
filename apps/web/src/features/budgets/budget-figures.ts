import { BUDGET_PURPOSES, type BudgetPurpose, type PurposeUse, type ShipBudgetUse } from '@ship-cctv/protocol';

/** Share of a cap used, in whole percent (no cap: null). */
export function percentOf(bytes: number, cap: number | null): number | null {
  if (cap === null || cap <= 0) return null;
  return Math.floor((bytes / cap) * 100);
}

/** The purpose whose cap is nearest (the badge shows it); none when the ship has no caps. */
export function tightestPurpose(use: ShipBudgetUse['use']): { purpose: BudgetPurpose; use: PurposeUse; share: number } | undefined {
  let best: { purpose: BudgetPurpose; use: PurposeUse; share: number } | undefined;
  for (const purpose of BUDGET_PURPOSES) {
    const u = use[purpose];
    const share = Math.max(percentOf(u.dayBytes, u.dayCapBytes) ?? -1, percentOf(u.monthBytes, u.monthCapBytes) ?? -1);
    if (share < 0) continue;
    if (!best || share > best.share) best = { purpose, use: u, share };
  }
  return best;
}

/** The badge's colour by level. */
export function levelColour(level: 0 | 80 | 100): string {
  return level === 100 ? 'error' : level === 80 ? 'warning' : 'default';
}

/** Megabytes from a form to the API: empty means no cap (the key is left out). */
export function capOf(dayMb: number | null, monthMb: number | null): { dayMb?: number; monthMb?: number } {
  return { ...(dayMb !== null && dayMb > 0 ? { dayMb } : {}), ...(monthMb !== null && monthMb > 0 ? { monthMb } : {}) };
}
