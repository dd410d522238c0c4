import { and, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import { BUDGET_PURPOSES, type BudgetPurpose } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import * as t from '../../core/db/schema.ts';
import { type Usage, emptyUsage } from './budget-arithmetic.ts';
import { monthDays, type ShipPeriod } from './ship-calendar.ts';

export interface UsageIncrement {
  shipId: string;
  day: string;
  purpose: BudgetPurpose;
  bytes: number;
}

export type SettingRow = typeof t.dataBudgets.$inferSelect;
export type OverrideRow = typeof t.budgetOverrides.$inferSelect;
export type BudgetShip = Pick<typeof t.ships.$inferSelect, 'id' | 'name' | 'orgId' | 'timeZone'>;

const shipColumns = { id: t.ships.id, name: t.ships.name, orgId: t.ships.orgId, timeZone: t.ships.timeZone };

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

/** Budget settings, overrides and notices, and the ships and users they name. */
export class BudgetRepo {
  constructor(private readonly db: Db) {}

  /** Ships by id (name, organisation, time zone). */
  async shipsById(ids: readonly string[]): Promise<Map<string, BudgetShip>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.select(shipColumns).from(t.ships).where(inArray(t.ships.id, [...ids]));
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** The ships of these organisations, in the tree's order. */
  shipsOfOrganizations(orgIds: readonly string[]): Promise<BudgetShip[]> {
    if (orgIds.length === 0) return Promise.resolve([]);
    return this.db.select(shipColumns).from(t.ships).where(inArray(t.ships.orgId, [...orgIds])).orderBy(t.ships.sort, t.ships.id);
  }

  /** Every setting (ships' own and defaults) of these organisations. */
  settingsOf(orgIds: readonly string[]): Promise<SettingRow[]> {
    if (orgIds.length === 0) return Promise.resolve([]);
    return this.db.select().from(t.dataBudgets).where(inArray(t.dataBudgets.orgId, [...orgIds]));
  }

  /** The organisations' defaults (settings naming no ship). */
  defaultsOf(orgIds: readonly string[]): Promise<SettingRow[]> {
    return this.db.select().from(t.dataBudgets).where(and(inArray(t.dataBudgets.orgId, [...orgIds]), eq(t.dataBudgets.shipId, '')));
  }

  async setting(orgId: string, shipId: string): Promise<SettingRow | undefined> {
    const [row] = await this.db.select().from(t.dataBudgets).where(and(eq(t.dataBudgets.orgId, orgId), eq(t.dataBudgets.shipId, shipId)));
    return row;
  }

  /** Sets a ship's own budget or an organisation's default (shipId ''), inserted or replaced. */
  async saveSetting(values: typeof t.dataBudgets.$inferInsert & { updatedAt: Date }): Promise<SettingRow> {
    const [row] = await this.db
      .insert(t.dataBudgets)
      .values(values)
      .onConflictDoUpdate({ target: [t.dataBudgets.orgId, t.dataBudgets.shipId], set: { policy: values.policy, caps: values.caps, updatedBy: values.updatedBy, updatedAt: values.updatedAt } })
      .returning();
    return row as SettingRow;
  }

  /** Deletes a setting; answers whether there was one. */
  async removeSetting(orgId: string, shipId: string): Promise<boolean> {
    const gone = await this.db
      .delete(t.dataBudgets)
      .where(and(eq(t.dataBudgets.orgId, orgId), eq(t.dataBudgets.shipId, shipId)))
      .returning({ orgId: t.dataBudgets.orgId });
    return gone.length > 0;
  }

  async username(userId: string): Promise<string | undefined> {
    const [user] = await this.db.select({ username: t.users.username }).from(t.users).where(eq(t.users.id, userId));
    return user?.username;
  }

  /** Until when the user's latest override of the ship holds, if one holds at `at`. */
  async activeOverrideUntil(userId: string, shipId: string, at: Date): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ validUntil: t.budgetOverrides.validUntil })
      .from(t.budgetOverrides)
      .where(and(eq(t.budgetOverrides.shipId, shipId), eq(t.budgetOverrides.userId, userId), gt(t.budgetOverrides.validUntil, at)))
      .orderBy(desc(t.budgetOverrides.validUntil))
      .limit(1);
    return row?.validUntil;
  }

  async addOverride(values: typeof t.budgetOverrides.$inferInsert): Promise<OverrideRow> {
    const [row] = await this.db.insert(t.budgetOverrides).values(values).returning();
    return row as OverrideRow;
  }

  /** The overrides of these organisations with their ships' names, newest first (at most 500). */
  overridesOf(orgIds: readonly string[]): Promise<{ o: OverrideRow; shipName: string }[]> {
    return this.db
      .select({ o: t.budgetOverrides, shipName: t.ships.name })
      .from(t.budgetOverrides)
      .innerJoin(t.ships, eq(t.ships.id, t.budgetOverrides.shipId))
      .where(inArray(t.budgetOverrides.orgId, [...orgIds]))
      .orderBy(desc(t.budgetOverrides.createdAt), desc(t.budgetOverrides.id))
      .limit(500);
  }

  /** Notes that a ship reached a level in a period; answers false when some instance noted it already. */
  async noteNotice(values: typeof t.budgetNotices.$inferInsert): Promise<boolean> {
    const inserted = await this.db.insert(t.budgetNotices).values(values).onConflictDoNothing().returning({ level: t.budgetNotices.level });
    return inserted.length > 0;
  }
}
