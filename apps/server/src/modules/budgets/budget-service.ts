import {
  type BudgetNoticeMessage,
  type BudgetOverride,
  type BudgetOverrideRequest,
  type BudgetPolicy,
  type BudgetPolicyChoice,
  type DataBudgetDelete,
  type DataBudgetSetting,
  type DataBudgetStatistics,
  type DataBudgetUpdate,
  LINK_POLICY_DEFAULTS,
  type LiveBudgetState,
  type PolicyLink,
  type ShipBudgetUse,
  dest,
} from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { type OrgTree, visibleSubtreeOrgIds } from '../../core/orgs/org-tree.ts';
import { loadOrgTree, managedOrgIds } from '../../core/orgs/repo.ts';
import { crossings, emptyUsage, liveState, useOf } from './budget-arithmetic.ts';
import { BudgetRepo, type BudgetShip as ShipRow, type SettingRow, UsageStore } from './repo.ts';
import { endOfShipDay, shipPeriod } from './ship-calendar.ts';
import { type LinkCounterReader, UsageRecorder } from './usage-recorder.ts';
type Effective = { setting: SettingRow | undefined; source: ShipBudgetUse['source'] };
type LinkBudgetPolicy = { linkType: PolicyLink; policy: BudgetPolicy };

export interface BudgetServiceOptions {
  db: Db;
  /** This instance's link counters (the metrics' totals). */
  readCounter: LinkCounterReader;
  /** Publishes a STOMP message to every instance's subscribers. */
  publish: (destination: string, body: string) => void;
  /**
   * The link each ship is on now and what its organisation's policy for that link says about a
   * used-up live budget (for budgets whose policy is `link`), by ship id: one call for all of them,
   * with the organisation tree the caller has already.
   */
  linkBudgetPolicies: (ships: readonly { id: string; name: string; orgId: string }[], orgs: OrgTree) => Promise<Map<string, LinkBudgetPolicy>>;
  /** The clock (tests move it across days and months). */
  now?: () => number;
}

const toSetting = (r: SettingRow): DataBudgetSetting => ({
  orgId: r.orgId,
  ...(r.shipId ? { shipId: r.shipId } : {}),
  policy: r.policy as BudgetPolicyChoice,
  caps: r.caps,
  updatedBy: r.updatedBy,
  updatedAt: r.updatedAt.getTime(),
});

/**
 * Data budgets: settings per ship with defaults per organisation (the nearest organisation up the
 * tree that has one), use counted from the link counters into the database by the ship's days, the
 * notices at 80 % and 100 % (once per period, whichever instance sees it first), what a live
 * request gets once the live budget is used up, and the log of overrides.
 */
export class BudgetService {
  readonly usage: UsageStore;
  private readonly repo: BudgetRepo;
  private readonly recorder: UsageRecorder;
  private readonly now: () => number;

  constructor(private readonly opts: BudgetServiceOptions) {
    this.usage = new UsageStore(opts.db);
    this.repo = new BudgetRepo(opts.db);
    this.recorder = new UsageRecorder(opts.readCounter);
    this.now = opts.now ?? Date.now;
  }

  private get db(): Db {
    return this.opts.db;
  }

  /** Whether the user manages the organisation (a manager of it or of one above it). */
  async canManage(access: Access, orgId: string): Promise<boolean> {
    return access.orgs.subtree(await managedOrgIds(this.db, access.userId)).has(orgId);
  }

  private async requireShip(access: Access, shipId: string): Promise<ShipRow> {
    const ship = (await this.repo.shipsById([shipId])).get(shipId);
    // An unknown ship answers as another organisation's: ship ids outside the user's stay unknown.
    if (!ship || !access.visibleOrgIds.has(ship.orgId)) throw forbidden();
    return ship;
  }

  /** The setting a ship follows: its own, else the nearest organisation default up the tree. */
  private async effective(ship: ShipRow, orgs: OrgTree): Promise<Effective> {
    return (await this.effectiveOf([ship], orgs)).get(ship.id) ?? { setting: undefined, source: 'none' };
  }

  /** The settings several ships follow (their budgets read once for all). */
  private async effectiveOf(ships: readonly ShipRow[], orgs: OrgTree): Promise<Map<string, Effective>> {
    const chains = new Map(ships.map((ship) => [ship.id, orgs.ancestors(ship.orgId)]));
    const orgIds = [...new Set([...chains.values()].flat())];
    const rows = await this.repo.settingsOf(orgIds);
    const own = new Map(rows.filter((r) => r.shipId !== '').map((r) => [r.shipId, r]));
    const orgDefault = new Map(rows.filter((r) => r.shipId === '').map((r) => [r.orgId, r]));
    const out = new Map<string, Effective>();
    for (const ship of ships) {
      const mine = own.get(ship.id);
      const nearest = chains.get(ship.id)?.find((id) => orgDefault.has(id));
      const d = nearest === undefined ? undefined : orgDefault.get(nearest);
      out.set(ship.id, mine ? { setting: mine, source: 'ship' } : d ? { setting: d, source: 'org' } : { setting: undefined, source: 'none' });
    }
    return out;
  }

  private async activeOverride(userId: string, shipId: string, at: number): Promise<number | undefined> {
    return (await this.repo.activeOverrideUntil(userId, shipId, new Date(at)))?.getTime();
  }

  private async shipUse(ship: ShipRow, userId: string | undefined, orgs: OrgTree): Promise<ShipBudgetUse> {
    const [use] = await this.shipUses([ship], userId, orgs);
    if (!use) throw new Error(`no budget use for ship ${ship.id}`);
    return use;
  }

  /** Several ships' use against their budgets: settings and counts read once for all of them. */
  private async shipUses(ships: readonly ShipRow[], userId: string | undefined, orgs: OrgTree): Promise<ShipBudgetUse[]> {
    const at = this.now();
    const periods = new Map(ships.map((ship) => [ship.id, shipPeriod(at, ship.timeZone)]));
    const [settings, usages] = await Promise.all([this.effectiveOf(ships, orgs), this.usage.usageOf(ships.map((ship) => ({ shipId: ship.id, period: periods.get(ship.id)! })))]);
    const choiceOf = (ship: ShipRow) => (settings.get(ship.id)?.setting?.policy as BudgetPolicyChoice | undefined) ?? null;
    // `link`: the policy of the link the ship is on now (asked only for such budgets, once for all of them).
    const following = ships.filter((ship) => choiceOf(ship) === 'link');
    const linkPolicies = following.length > 0 ? await this.opts.linkBudgetPolicies(following, orgs) : new Map<string, LinkBudgetPolicy>();
    return Promise.all(
      ships.map(async (ship) => {
        const period = periods.get(ship.id)!;
        const { setting, source } = settings.get(ship.id) ?? { setting: undefined, source: 'none' as const };
        const use = useOf(setting?.caps, usages.get(ship.id) ?? emptyUsage());
        const choice = choiceOf(ship);
        const fromLink = choice === 'link' ? linkPolicies.get(ship.id) : undefined;
        // (A ship the link lookup left out gets what a link of unknown type gets.)
        const policy: BudgetPolicy | null = choice === 'link' ? (fromLink?.policy ?? LINK_POLICY_DEFAULTS.DEFAULT.budgetPolicy) : choice;
        const overrideUntil = userId && policy === 'block' && use.live.level === 100 ? await this.activeOverride(userId, ship.id, at) : undefined;
        return {
          shipId: ship.id,
          shipName: ship.name,
          orgId: ship.orgId,
          timeZone: ship.timeZone,
          day: period.day,
          month: period.month,
          source,
          ...(source === 'org' && setting ? { sourceOrgId: setting.orgId } : {}),
          policy,
          policyChoice: choice,
          ...(fromLink ? { policyLink: fromLink.linkType } : {}),
          use,
          live: liveState(policy, use.live, overrideUntil !== undefined),
          ...(overrideUntil !== undefined ? { overrideUntil } : {}),
        };
      }),
    );
  }

  /** What a new live view of the ship by this user gets now (the live request path asks). */
  async liveAdmission(access: Access, shipId: string): Promise<LiveBudgetState> {
    const ship = await this.requireShip(access, shipId);
    // Most ships have no budget: no need to add up their use.
    const { setting } = await this.effective(ship, access.orgs);
    if (!setting || (setting.caps.live.dayMb === undefined && setting.caps.live.monthMb === undefined)) return 'normal';
    return (await this.shipUse(ship, access.userId, access.orgs)).live;
  }

  /** Until when a live view of the ship refused now stays refused at least: the ship's next midnight. */
  async liveHeldUntil(shipId: string): Promise<number> {
    const now = this.now();
    const ship = (await this.shipsById([shipId])).get(shipId);
    return endOfShipDay(now, ship?.timeZone ?? 'UTC');
  }

  /** Whether the ship's pictures cap (of the day or the month) is reached: automatic pictures (stills) wait. */
  async picturesUsedUp(shipId: string): Promise<boolean> {
    return this.usedUp(shipId, 'pictures');
  }

  /** Whether the ship's events cap (of the day or the month) is reached: its events wait in the ship's outbox. */
  async eventsUsedUp(shipId: string): Promise<boolean> {
    return this.usedUp(shipId, 'events');
  }

  private async usedUp(shipId: string, purpose: 'pictures' | 'events'): Promise<boolean> {
    const ship = (await this.shipsById([shipId])).get(shipId);
    if (!ship) return false;
    const { setting } = await this.effective(ship, await loadOrgTree(this.db));
    const cap = setting?.caps[purpose];
    if (!setting || !cap || (cap.dayMb === undefined && cap.monthMb === undefined)) return false;
    // Only this purpose's use: not the policy, nor the link that `link` would ask for.
    const usage = await this.usage.usage(ship.id, shipPeriod(this.now(), ship.timeZone));
    return useOf(setting.caps, usage)[purpose].level === 100;
  }

  /**
   * Bytes the ship may still spend on backfill today (and this month): its budget's backfill caps
   * (the ship's own or its organisation's), or `defaultDayMb` a day when the budget names none.
   * Infinity: no cap at all. Counted bytes reach the database every few seconds, so a caller
   * sending more than that in between subtracts what it sent since it asked.
   */
  async backfillLeft(shipId: string, defaultDayMb: number | null): Promise<number> {
    const ship = (await this.shipsById([shipId])).get(shipId);
    if (!ship) return 0;
    const { setting } = await this.effective(ship, await loadOrgTree(this.db));
    const cap = setting?.caps.backfill ?? (defaultDayMb === null ? undefined : { dayMb: defaultDayMb });
    if (!cap || (cap.dayMb === undefined && cap.monthMb === undefined)) return Infinity;
    const usage = await this.usage.usage(ship.id, shipPeriod(this.now(), ship.timeZone));
    const use = useOf({ live: {}, playback: {}, pictures: {}, backfill: cap }, usage).backfill;
    const left = [use.dayCapBytes === null ? Infinity : use.dayCapBytes - use.dayBytes, use.monthCapBytes === null ? Infinity : use.monthCapBytes - use.monthBytes];
    return Math.max(0, Math.min(...left));
  }

  /** The budgets and use of an organisation's ships (and its sub-organisations') the user sees. */
  async statistics(access: Access, orgId: string, onlyShips?: readonly string[]): Promise<DataBudgetStatistics> {
    const orgIds = visibleSubtreeOrgIds(access, orgId);
    let ships: ShipRow[] = await this.repo.shipsOfOrganizations(orgIds);
    if (onlyShips) ships = ships.filter((s) => onlyShips.includes(s.id));
    const chain = access.orgs.ancestors(orgId);
    const defaults = (await this.repo.defaultsOf(chain))
      .sort((a, b) => chain.indexOf(a.orgId) - chain.indexOf(b.orgId))
      .filter((r) => access.visibleOrgIds.has(r.orgId))
      .map(toSetting);
    return { orgId, defaults, ships: await this.shipUses(ships, access.userId, access.orgs), canEdit: await this.canManage(access, orgId) };
  }

  /** A ship's own setting (if any), for the editor. */
  async shipSetting(access: Access, shipId: string): Promise<DataBudgetSetting | null> {
    const ship = await this.requireShip(access, shipId);
    const row = await this.repo.setting(ship.orgId, ship.id);
    return row ? toSetting(row) : null;
  }

  /** Where a setting is kept: the organisation's default, or a ship of it (checked: visible, managed, in it). */
  private async target(access: Access, body: { orgId: string; shipId?: string | undefined }): Promise<{ orgId: string; shipId: string }> {
    if (!access.orgs.get(body.orgId)) throw notFound('Organisation');
    if (!access.visibleOrgIds.has(body.orgId)) throw forbidden();
    if (body.shipId === undefined) {
      if (!(await this.canManage(access, body.orgId))) throw forbidden();
      return { orgId: body.orgId, shipId: '' };
    }
    const ship = await this.requireShip(access, body.shipId);
    if (!access.orgs.subtree([body.orgId]).has(ship.orgId)) throw badRequest(`ship ${body.shipId} is not in organisation ${body.orgId}`);
    if (!(await this.canManage(access, ship.orgId))) throw forbidden();
    return { orgId: ship.orgId, shipId: ship.id };
  }

  async update(access: Access, body: DataBudgetUpdate): Promise<DataBudgetSetting> {
    for (const [purpose, cap] of Object.entries(body.caps)) {
      if (cap.dayMb !== undefined && cap.monthMb !== undefined && cap.dayMb > cap.monthMb) {
        throw badRequest(`caps.${purpose}: the day's cap (${cap.dayMb} MB) is larger than the month's (${cap.monthMb} MB)`);
      }
    }
    const where = await this.target(access, body);
    const username = await this.repo.username(access.userId);
    const values = { ...where, policy: body.policy, caps: body.caps, updatedBy: username ?? access.userId, updatedAt: new Date(this.now()) };
    return toSetting(await this.repo.saveSetting(values));
  }

  async remove(access: Access, body: DataBudgetDelete): Promise<void> {
    const where = await this.target(access, body);
    if (!(await this.repo.removeSetting(where.orgId, where.shipId))) throw notFound(where.shipId ? `A budget of ship ${where.shipId}` : `A default budget of organisation ${where.orgId}`);
  }

  /**
   * Lets this user start live views of a ship whose live budget blocks them, until the end of the
   * ship's day; logged with who, when and why. Refused (409) when the ship is not blocked.
   */
  async override(access: Access, body: BudgetOverrideRequest): Promise<BudgetOverride> {
    const ship = await this.requireShip(access, body.shipId);
    const state = (await this.shipUse(ship, access.userId, access.orgs)).live;
    if (state !== 'block' && state !== 'override') throw new ApiError(409, `live views of ship ${ship.id} are not blocked by its data budget (${state})`);
    const username = await this.repo.username(access.userId);
    const at = this.now();
    const r = await this.repo.addOverride({ shipId: ship.id, orgId: ship.orgId, userId: access.userId, username: username ?? access.userId, reason: body.reason.trim(), createdAt: new Date(at), validUntil: new Date(endOfShipDay(at, ship.timeZone)) });
    return { ...r, shipName: ship.name, createdAt: r.createdAt.getTime(), validUntil: r.validUntil.getTime() };
  }

  /** The override log of an organisation's visible subtree, newest first. */
  async overrides(access: Access, orgId: string): Promise<BudgetOverride[]> {
    const orgIds = visibleSubtreeOrgIds(access, orgId);
    if (orgIds.length === 0) return [];
    const rows = await this.repo.overridesOf(orgIds);
    return rows.map(({ o, shipName }) => ({ ...o, shipName, createdAt: o.createdAt.getTime(), validUntil: o.validUntil.getTime() }));
  }

  /**
   * Moves what this instance's links counted since the last flush into the database, by each ship's
   * day, then sends the notices those ships newly earned. Counts that could not be written are
   * carried to the next flush.
   */
  async flush(connectedShips: Iterable<string>): Promise<void> {
    const at = this.now();
    const ids = new Set(connectedShips);
    const known = await this.shipsById([...new Set([...ids, ...this.recorder.ships()])]);
    const increments = this.recorder.take(ids, (shipId) => shipPeriod(at, known.get(shipId)?.timeZone ?? 'UTC').day);
    try {
      await this.usage.add(increments);
    } catch (err) {
      this.recorder.giveBack(increments);
      throw err;
    }
    const touched = [...new Set(increments.map((i) => i.shipId))].flatMap((shipId) => known.get(shipId) ?? []);
    // No user asks: the organisations are read here, and only when some ship counted bytes.
    const uses = touched.length > 0 ? await this.shipUses(touched, undefined, await loadOrgTree(this.db)) : [];
    for (const [i, ship] of touched.entries()) await this.notify(ship, uses[i]!);
  }

  private shipsById(ids: string[]): Promise<Map<string, ShipRow>> {
    return this.repo.shipsById(ids);
  }

  /** Sends each level a ship reached in a period once: the notice row decides which instance sends it. */
  private async notify(ship: ShipRow, use: ShipBudgetUse): Promise<void> {
    if (!use.policy) return;
    const periodKey = { day: use.day, month: use.month };
    const fresh: BudgetNoticeMessage[] = [];
    for (const c of crossings(use.use)) {
      const noted = await this.repo.noteNotice({ shipId: ship.id, purpose: c.purpose, period: periodKey[c.period], level: c.level, sentAt: new Date(this.now()) });
      if (noted) fresh.push({ shipId: ship.id, shipName: ship.name, purpose: c.purpose, period: c.period, periodKey: periodKey[c.period], level: c.level, usedBytes: c.usedBytes, capBytes: c.capBytes, policy: use.policy, ...(use.policyLink ? { policyLink: use.policyLink } : {}) });
    }
    // Crossing 80 % and 100 % in one flush tells the operators once, of the 100 %.
    for (const n of fresh) {
      if (n.level === 80 && fresh.some((m) => m.level === 100 && m.purpose === n.purpose && m.period === n.period)) continue;
      this.opts.publish(dest.budget(ship.name), JSON.stringify(n));
    }
  }
}
