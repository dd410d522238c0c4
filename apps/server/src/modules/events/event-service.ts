import {
  type CameraEventSettings,
  type CameraEventSettingsAnswer,
  type CameraEventSettingsEntry,
  DEFAULT_CAMERA_EVENT_SETTINGS,
  DEFAULT_ORG_EVENT_SETTINGS,
  type EventInfo,
  type EventListQuery,
  type EventNotice,
  type EventPage,
  type OrgEventSettings,
  type UnacknowledgedAnswer,
  dest,
  isTimeZone,
} from '@ship-cctv/protocol';
import type { Access } from '../../core/orgs/access.ts';
import type { OrgTree } from '../../core/orgs/org-tree.ts';
import { badRequest, notFound, forbidden } from '../../core/http/envelope.ts';
import type { EventFiles } from './event-files.ts';
import { fetchesVideo, notifies } from './notify-rule.ts';
import { type EventRepo, type EventRow, toInfo } from './repo.ts';

export interface EventServiceDeps {
  repo: EventRepo;
  files: EventFiles;
  /** The organisations a user manages (memberships with the manager role). */
  managedOrgIds(userId: string): Promise<string[]>;
  /** The whole organisation tree, read afresh (work no request asked for). */
  orgTree(): Promise<OrgTree>;
  /** How long events are kept on shore, by when they started (ms). */
  maxAgeMs: number;
  /** Publishes on a STOMP destination across instances. */
  publish(destination: string, body: EventNotice): void;
  /** Sends a ship its cameras' settings when its link is here. */
  pushSettings(shipId: string): Promise<void>;
  /** An organisation's rule was saved: who sees its events may have changed (done when it resolves). */
  ruleSaved?(orgId: string): Promise<void>;
  /** Fetches a new event's span of the ship's recording (its organisation's rule asks for it). */
  fetchVideo?(row: EventRow): void;
}

/**
 * Events on shore as users see them: the list and one event (only of ships of organisations in
 * their access: another organisation's event is 404, as one that does not exist), the best
 * picture, acknowledging (the first acknowledgement is kept) and deleting, the cameras' analysis
 * settings and the organisations' notify rules, and the notice on `/events/{shipName}` as each
 * event arrives.
 */
export class EventService {
  constructor(private readonly deps: EventServiceDeps) {}

  /** The event pictures on shore (and those on their way). */
  get files(): EventFiles {
    return this.deps.files;
  }

  async list(access: Access, q: EventListQuery): Promise<EventPage> {
    const page = q.page ?? 1;
    const size = q.size ?? 50;
    const { total, events } = await this.deps.repo.query(
      {
        orgIds: [...(await this.eventOrgIds(access))],
        shipId: q.shipId,
        cameraId: q.cameraId,
        eventClass: q.class,
        from: q.from,
        to: q.to,
        acknowledged: q.acknowledged === undefined ? undefined : q.acknowledged === 'true',
      },
      page,
      size,
    );
    return { page, size, total, events };
  }

  async get(access: Access, id: string): Promise<EventInfo> {
    const row = await this.require(access, id);
    return toInfo(row, row.shipName, row.cameraName);
  }

  async picture(access: Access, id: string): Promise<Buffer> {
    const row = await this.require(access, id);
    const bytes = await this.deps.files.read(row.pictureFile);
    if (!bytes) throw notFound(`The picture of event ${id}`);
    return bytes;
  }

  async acknowledge(access: Access, id: string, by: string): Promise<EventInfo> {
    const row = await this.require(access, id);
    const [done] = await this.deps.repo.acknowledge([id], [row.orgId], by, new Date());
    if (done) this.noticeAcknowledged(done, row.shipName);
    return this.get(access, id);
  }

  async acknowledgeMany(access: Access, ids: readonly string[], by: string): Promise<{ acknowledged: number }> {
    const done = await this.deps.repo.acknowledge(ids, [...(await this.eventOrgIds(access))], by, new Date());
    if (done.length > 0) {
      const names = await this.shipNames(done.map((d) => d.id));
      for (const row of done) this.noticeAcknowledged(row, names.get(row.id) ?? '');
    }
    return { acknowledged: done.length };
  }

  /** Deletes an event and its picture: a manager of the ship's organisation (or one above it). */
  async delete(access: Access, id: string): Promise<{ deleted: true }> {
    const row = await this.require(access, id);
    await this.requireManager(access, row.orgId);
    await this.deps.repo.delete(id);
    await this.deps.files.remove(row.pictureFile);
    this.deps.publish(dest.events(row.shipName), { type: 'deleted', id });
    return { deleted: true };
  }

  /** Retention: events that started longer ago than the retention go, with their pictures. Returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const old = await this.deps.repo.startedBefore(now - this.deps.maxAgeMs, 200);
      if (old.length === 0) return removed;
      for (const row of old) {
        await this.deps.repo.delete(row.id);
        await this.deps.files.remove(row.pictureFile);
        removed++;
      }
    }
  }

  async unacknowledged(access: Access): Promise<UnacknowledgedAnswer> {
    return { ships: await this.deps.repo.unacknowledged([...(await this.eventOrgIds(access))]) };
  }

  async cameraSettings(access: Access, cameraId: string): Promise<CameraEventSettingsAnswer> {
    await this.requireCamera(access, cameraId);
    const row = await this.deps.repo.cameraSettings(cameraId);
    return { ...(row?.settings ?? DEFAULT_CAMERA_EVENT_SETTINGS), ...(row?.status ? { status: row.status } : {}) };
  }

  /** Changes a camera's analysis settings (a manager of its ship's organisation) and sends them to the ship. */
  async saveCameraSettings(access: Access, cameraId: string, settings: CameraEventSettings, by: string): Promise<CameraEventSettingsAnswer> {
    const camera = await this.requireCamera(access, cameraId);
    checkCameraSettings(settings);
    await this.requireManager(access, camera.orgId);
    await this.deps.repo.saveCameraSettings(cameraId, camera.shipId, settings, by);
    await this.deps.pushSettings(camera.shipId);
    return this.cameraSettings(access, cameraId);
  }

  /** Every camera's settings of a ship that shore keeps (what the ship is sent). */
  async shipSettings(shipId: string): Promise<CameraEventSettingsEntry[]> {
    return this.deps.repo.shipCameraSettings(shipId);
  }

  /** An organisation's notify rule: its own, else the nearest one above it, else the default. */
  async orgSettings(access: Access, orgId: string): Promise<OrgEventSettings> {
    this.requireOrg(access, orgId);
    return this.ruleOf(access.orgs, orgId);
  }

  async saveOrgSettings(access: Access, orgId: string, settings: OrgEventSettings, by: string): Promise<OrgEventSettings> {
    this.requireOrg(access, orgId);
    checkOrgSettings(settings);
    await this.requireManager(access, orgId);
    await this.deps.repo.saveOrgSettings(orgId, settings, by);
    await this.deps.ruleSaved?.(orgId);
    return this.ruleOf(access.orgs, orgId);
  }

  /**
   * A new event is on shore: the pages watching its ship hear of it, and whether its
   * organisation's rule toasts it; when the rule says so, its video is fetched from the ship.
   */
  async arrived(row: EventRow): Promise<void> {
    const full = await this.deps.repo.get(row.id);
    if (!full) return;
    const rule = await this.ruleOf(await this.deps.orgTree(), row.orgId);
    const event = toInfo(full, full.shipName, full.cameraName);
    this.deps.publish(dest.events(full.shipName), { type: 'event', event, notify: notifies(rule, event) });
    if (fetchesVideo(rule, event)) this.deps.fetchVideo?.(full);
  }

  /**
   * An event on shore went on (a later end, more classes): the pages watching its ship hear of it,
   * without a second toast; when its organisation's rule fetches its video, the longer span is
   * fetched (what the shore recording already has is not copied again).
   */
  async amended(row: EventRow): Promise<void> {
    const full = await this.deps.repo.get(row.id);
    if (!full) return;
    const event = toInfo(full, full.shipName, full.cameraName);
    this.deps.publish(dest.events(full.shipName), { type: 'updated', event });
    if (fetchesVideo(await this.ruleOf(await this.deps.orgTree(), row.orgId), event)) this.deps.fetchVideo?.(full);
  }

  private async ruleOf(orgs: OrgTree, orgId: string): Promise<OrgEventSettings> {
    return (await this.rulesOf(orgs, [orgId])).get(orgId) ?? DEFAULT_ORG_EVENT_SETTINGS;
  }

  /** The rule of each organisation given (its own, else the nearest one above it, else the default), in one read. */
  private async rulesOf(orgs: OrgTree, orgIds: Iterable<string>): Promise<Map<string, OrgEventSettings>> {
    const chains = new Map([...orgIds].map((id) => [id, orgs.ancestors(id)]));
    const own = await this.deps.repo.orgSettings([...new Set([...chains.values()].flat())]);
    const rules = new Map<string, OrgEventSettings>();
    for (const [id, chain] of chains) rules.set(id, chain.map((c) => own.get(c)).find((r) => r !== undefined) ?? DEFAULT_ORG_EVENT_SETTINGS);
    return rules;
  }

  /**
   * The organisations whose events the user sees: those whose ships they see (all of them, or
   * those given), less those whose rule keeps events to managers (`seenBy`) when the user manages
   * neither it nor one above it.
   */
  async eventOrgIds(access: Access, among: Iterable<string> = access.visibleOrgIds): Promise<Set<string>> {
    const rules = await this.rulesOf(access.orgs, [...among].filter((id) => access.visibleOrgIds.has(id)));
    let managed: Set<string> | undefined;
    const out = new Set<string>();
    for (const [orgId, rule] of rules) {
      if (rule.seenBy === 'managers') {
        managed ??= access.orgs.subtree(await this.deps.managedOrgIds(access.userId));
        if (!managed.has(orgId)) continue;
      }
      out.add(orgId);
    }
    return out;
  }

  /** Whether the user sees the ships and the events of every organisation given (none: false). */
  async seesEventsOf(access: Access, orgIds: readonly string[]): Promise<boolean> {
    if (orgIds.length === 0) return false;
    const seen = await this.eventOrgIds(access, orgIds);
    return orgIds.every((id) => seen.has(id));
  }

  private noticeAcknowledged(row: EventRow, shipName: string): void {
    if (!row.acknowledgedBy || !row.acknowledgedAt || !shipName) return;
    this.deps.publish(dest.events(shipName), { type: 'acknowledged', id: row.id, acknowledgedBy: row.acknowledgedBy, acknowledgedAt: row.acknowledgedAt.getTime() });
  }

  private async shipNames(ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const id of ids) {
      const row = await this.deps.repo.get(id);
      if (row) out.set(id, row.shipName);
    }
    return out;
  }

  /** An event the user may see; another organisation's (or one its rule keeps from them) answers as one that does not exist. */
  private async require(access: Access, id: string) {
    const row = await this.deps.repo.get(id);
    if (!row || !(await this.seesEventsOf(access, [row.orgId]))) throw notFound(`Event ${id}`);
    return row;
  }

  /** A camera the user may see; an unknown one and another organisation's answer alike (404). */
  private async requireCamera(access: Access, cameraId: string): Promise<{ shipId: string; orgId: string }> {
    const camera = await this.deps.repo.cameraShip(cameraId);
    if (!camera || !access.visibleOrgIds.has(camera.orgId)) throw notFound(`Camera ${cameraId}`);
    return camera;
  }

  private requireOrg(access: Access, orgId: string): void {
    if (!access.orgs.get(orgId) || !access.visibleOrgIds.has(orgId)) throw notFound(`Organisation ${orgId}`);
  }

  /** Settings change by a manager of the organisation or of one above it (the budgets' rule). */
  private async requireManager(access: Access, orgId: string): Promise<void> {
    const managed = await this.deps.managedOrgIds(access.userId);
    if (!access.orgs.subtree(managed).has(orgId)) throw forbidden();
  }
}

/** What the schema cannot say of a camera's settings: 400 naming the field. */
export function checkCameraSettings(s: CameraEventSettings): void {
  if (s.schedule.kind === 'daily' && !isTimeZone(s.schedule.timeZone)) throw badRequest(`body/schedule/timeZone: unknown time zone "${s.schedule.timeZone}"`);
  const names = new Set<string>();
  s.zones.forEach((zone, i) => {
    if (names.has(zone.name)) throw badRequest(`body/zones/${i}/name: a second zone named "${zone.name}"`);
    names.add(zone.name);
  });
}

export function checkOrgSettings(s: OrgEventSettings): void {
  if (s.timeZone !== undefined && !isTimeZone(s.timeZone)) throw badRequest(`body/timeZone: unknown time zone "${s.timeZone}"`);
  if ((s.notifyFrom === undefined) !== (s.notifyTo === undefined)) throw badRequest(`body/${s.notifyFrom === undefined ? 'notifyFrom' : 'notifyTo'}: notifyFrom and notifyTo go together`);
}
