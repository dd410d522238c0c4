import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import { BUDGET_PURPOSES, type BudgetPurpose } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';
import type { Usage } from './budget-arithmetic.ts';
import { monthDays, type ShipPeriod } from './ship-calendar.ts';

export interface UsageIncrement {
  shipId: string;
  day: string;
  purpose: BudgetPurpose;
  bytes: number;
}

export const emptyUsage = (): Usage => ({ live: { day: 0, month: 0 }, playback: { day: 0, month: 0 }, pictures: { day: 0, month: 0 } });

/** Link bytes per ship, ship day and purpose in the database: the cluster's sum of every instance's increments. */
export class UsageStore {
  constructor(private readonly db: Db) {}

  /** Adds bytes (one statement: increments from several instances at once add up, none is lost). */
  async add(increments: readonly UsageIncrement[]): Promise<void> {
    const rows = increments.filter((i) => i.bytes > 0);
    if (rows.length === 0) return;
    await this.db
      .insert(t.linkUsage)
      .values(rows)
      .onConflictDoUpdate({ target: [t.linkUsage.shipId, t.linkUsage.day, t.linkUsage.purpose], set: { bytes: sql`${t.linkUsage.bytes} + excluded.bytes` } });
  }

  /** A ship's bytes of the given day and of its month, by purpose. */
  async usage(shipId: string, period: ShipPeriod): Promise<Usage> {
    return (await this.usageOf([{ shipId, period }])).get(shipId) ?? emptyUsage();
  }

  /**
   * Several ships' bytes of their own day and month, by purpose, in one query (ships in different
   * time zones may be in different months at a month's end: each keeps the days of its own).
   */
  async usageOf(ships: readonly { shipId: string; period: ShipPeriod }[]): Promise<Map<string, Usage>> {
    const out = new Map(ships.map((s) => [s.shipId, emptyUsage()]));
    if (ships.length === 0) return out;
    const windows = new Map(ships.map((s) => [s.shipId, { ...monthDays(s.period.month), day: s.period.day }]));
    const all = [...windows.values()];
    const first = all.reduce((a, w) => (w.first < a ? w.first : a), all[0]!.first);
    const next = all.reduce((a, w) => (w.next > a ? w.next : a), all[0]!.next);
    const rows = await this.db
      .select({ shipId: t.linkUsage.shipId, day: t.linkUsage.day, purpose: t.linkUsage.purpose, bytes: t.linkUsage.bytes })
      .from(t.linkUsage)
      .where(and(inArray(t.linkUsage.shipId, [...windows.keys()]), gte(t.linkUsage.day, first), lt(t.linkUsage.day, next)));
    for (const r of rows) {
      const w = windows.get(r.shipId);
      if (!w || r.day < w.first || r.day >= w.next || !(BUDGET_PURPOSES as readonly string[]).includes(r.purpose)) continue;
      const u = out.get(r.shipId)![r.purpose as BudgetPurpose];
      u.month += Number(r.bytes);
      if (r.day === w.day) u.day += Number(r.bytes);
    }
    return out;
  }
}
