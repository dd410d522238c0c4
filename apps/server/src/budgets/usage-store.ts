import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { BUDGET_PURPOSES, type BudgetPurpose } from '@ship-cctv/protocol';
import type { Db } from '../db/client.ts';
import * as t from '../db/schema.ts';
import type { Usage } from './budget-arithmetic.ts';
import { monthDays, type ShipPeriod } from './ship-calendar.ts';

export interface UsageIncrement {
  shipId: string;
  day: string;
  purpose: BudgetPurpose;
  bytes: number;
}

const emptyUsage = (): Usage => ({ live: { day: 0, month: 0 }, playback: { day: 0, month: 0 }, pictures: { day: 0, month: 0 } });

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
    const { first, next } = monthDays(period.month);
    const rows = await this.db
      .select({ day: t.linkUsage.day, purpose: t.linkUsage.purpose, bytes: t.linkUsage.bytes })
      .from(t.linkUsage)
      .where(and(eq(t.linkUsage.shipId, shipId), gte(t.linkUsage.day, first), lt(t.linkUsage.day, next)));
    const out = emptyUsage();
    for (const r of rows) {
      if (!(BUDGET_PURPOSES as readonly string[]).includes(r.purpose)) continue;
      const u = out[r.purpose as BudgetPurpose];
      u.month += Number(r.bytes);
      if (r.day === period.day) u.day += Number(r.bytes);
    }
    return out;
  }
}
