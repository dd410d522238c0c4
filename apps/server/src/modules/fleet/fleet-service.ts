import type {
  Channel,
  ChannelTag,
  DefinitionGroup,
  OrgShipTreeNode,
  PlaybackAutoShutdown,
  PlaybackAutoShutdownUpdate,
  Ship,
  ShipConfig,
  ShipsAndChannels,
  WaitTime,
} from '@ship-cctv/protocol';
import { cameraSource, parseDestination } from '@ship-cctv/protocol';
import type { Db } from '../../core/db/client.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../core/http/envelope.ts';
import type { Access } from '../../core/orgs/access.ts';
import { type Organisation, requireOrg, visibleSubtreeOrgIds } from '../../core/orgs/org-tree.ts';
import { managedOrgIds, saveAutoShutdown } from '../../core/orgs/repo.ts';
import { FleetRepo, type ShipRow } from './repo.ts';

/** Read side of the fleet: organisations, ships, channels and their configuration, as the user may see them. */
export class FleetService {
  private readonly repo: FleetRepo;

  constructor(private readonly db: Db) {
    this.repo = new FleetRepo(db);
  }

  async orgShipTree(access: Access): Promise<OrgShipTreeNode[]> {
    const visible = [...access.visibleOrgIds];
    if (visible.length === 0) return [];
    // The tree lists organisations by id.
    const orgs = access.orgs.all.filter((o) => access.visibleOrgIds.has(o.id));
    const ships = await this.repo.shipsOfOrganizations(visible);
    const orgName = new Map(orgs.map((o) => [o.id, o.name]));
    const nodes = new Map<string, OrgShipTreeNode>(
      orgs.map((o) => [
        o.id,
        {
          organizationid: o.id,
          organizationname: o.name,
          displayName: o.displayName,
          parentId: o.parentId,
          orgShipTreeNodes: [],
          shipList: [],
        },
      ]),
    );
    for (const s of ships) nodes.get(s.orgId)?.shipList.push(toShip(s, orgName.get(s.orgId) ?? ''));
    const roots: OrgShipTreeNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
      if (parent) parent.orgShipTreeNodes.push(node);
      else roots.push(node);
    }
    return roots;
  }

  /**
   * A camera the user may see, with its channel, ship and organisation: 403 alike for an unknown
   * camera and another organisation's, so its answers do not tell which ids exist elsewhere.
   */
  async requireCamera(access: Access, cameraId: string) {
    const row = await this.repo.camera(cameraId);
    const org = row && access.orgs.get(row.ship.orgId);
    if (!row || !org || !access.visibleOrgIds.has(row.ship.orgId)) throw forbidden();
    return { ...row, org };
  }

  /**
   * A camera of a given ship: 403 for an unknown ship or another organisation's, 404 for a camera
   * that is not on it (a camera of some other ship is simply not on this one).
   */
  async requireCameraOfShip(access: Access, shipId: string, cameraId: string) {
    await this.requireShip(access, shipId);
    let row;
    try {
      row = await this.requireCamera(access, cameraId);
    } catch (err) {
      if (err instanceof ApiError) throw notFound(`Camera ${cameraId} of ship ${shipId}`);
      throw err;
    }
    if (row.ship.id !== shipId) throw notFound(`Camera ${cameraId} of ship ${shipId}`);
    return row;
  }

  /**
   * A ship the user may see. An unknown ship and another organisation's answer the same 403 (same
   * message), so no one learns which ship ids exist outside their organisations.
   */
  async requireShip(access: Access, shipId: string): Promise<ShipRow> {
    const ship = await this.repo.ship(shipId);
    if (!ship || !access.visibleOrgIds.has(ship.orgId)) throw forbidden();
    return ship;
  }

  async channels(access: Access, shipId: string): Promise<Channel[]> {
    await this.requireShip(access, shipId);
    const rows = await this.repo.channelsWithCameras(shipId);
    const out = new Map<string, Channel>();
    for (const { channel, camera } of rows) {
      let c = out.get(channel.id);
      if (!c) {
        c = { id: channel.id, name: channel.name, shipId: channel.shipId, block: channel.block, sort: channel.sort, cameras: [] };
        out.set(channel.id, c);
      }
      if (camera) {
        c.cameras.push({ id: camera.id, name: camera.name, type: camera.type, sourceType: camera.sourceType, other: camera.other });
      }
    }
    return [...out.values()];
  }

  async shipConfig(access: Access, orgId: string, shipId: string): Promise<ShipConfig> {
    requireOrg(access, orgId);
    const ship = await this.requireShip(access, shipId);
    // The organisation may be the ship's own or any above it (the tree's root, say).
    if (!access.orgs.subtree([orgId]).has(ship.orgId)) throw notFound('Ship in this organisation');
    return this.definitionsOf(shipId);
  }

  /** A ship's definition groups and models, default group, talk and audio, for the server's own use (no user's access asked). */
  async definitionsOf(shipId: string): Promise<ShipConfig> {
    const { config, groups, models } = await this.repo.definitions(shipId);
    const groupAliasResDTOS: DefinitionGroup[] = groups.map(({ group }) => ({
      id: group.id,
      displayName: group.displayName,
      ...(group.displayNameEn ? { displayNameEn: group.displayNameEn } : {}),
      defaultModelId: group.defaultModelId,
      models: models
        .filter((m) => m.groupId === group.id)
        .map((m) => ({
          id: m.id,
          displayName: m.displayName,
          ...(m.displayNameEn ? { displayNameEn: m.displayNameEn } : {}),
          width: m.width,
          height: m.height,
          frameRate: m.frameRate,
          bitrateKbps: m.bitrateKbps,
          codec: m.codec,
        })),
    }));
    return {
      groupAliasResDTOS,
      defaultGroupId: config?.defaultGroupId ?? null,
      talk: config?.talk ?? false,
      audio: config?.audio ?? false,
    };
  }

  async channelTags(access: Access, orgId: string | undefined): Promise<ChannelTag[]> {
    let orgIds = [...access.visibleOrgIds];
    if (orgId !== undefined) {
      requireOrg(access, orgId);
      orgIds = [orgId];
    }
    if (orgIds.length === 0) return [];
    const rows = await this.repo.channelTags(orgIds);
    const out = new Map<number, ChannelTag>();
    for (const { tag, channelId } of rows) {
      const entry = out.get(tag.id) ?? { id: tag.id, name: tag.name, orgId: tag.orgId, channelIds: [] };
      if (channelId) entry.channelIds.push(channelId);
      out.set(tag.id, entry);
    }
    return [...out.values()];
  }

  /** Counts over the organisation and its sub-organisations that the user may see. */
  async shipsAndChannels(access: Access, orgId: string): Promise<ShipsAndChannels> {
    const orgIds = visibleSubtreeOrgIds(access, orgId);
    const { ships, channels: channelRows, cameras } = await this.repo.counts(orgIds);
    const channelCount = channelRows.filter((r) => r.block !== 1).reduce((a, r) => a + r.n, 0);
    const blockedChannelCount = channelRows.filter((r) => r.block === 1).reduce((a, r) => a + r.n, 0);
    return { orgId, shipCount: ships, channelCount, blockedChannelCount, cameraCount: cameras };
  }

  async playbackAutoShutdown(access: Access, orgId: string): Promise<PlaybackAutoShutdown> {
    return autoShutdownOf(requireOrg(access, orgId));
  }

  /**
   * An administrator (a manager of the organisation or of one above it) changes its
   * continuous-watching limit; views started afterwards follow it.
   */
  async updatePlaybackAutoShutdown(access: Access, update: PlaybackAutoShutdownUpdate): Promise<PlaybackAutoShutdown> {
    requireOrg(access, update.orgId);
    const managed = await managedOrgIds(this.db, access.userId);
    if (!access.orgs.subtree(managed).has(update.orgId)) throw forbidden();
    if (update.countdownSeconds >= update.minutes * 60) throw badRequest('the countdown must be shorter than the limit');
    // The request's tree holds the settings from before the change: the answer is the row as written.
    const row = await saveAutoShutdown(this.db, update.orgId, update);
    if (!row) throw notFound('Organisation');
    return autoShutdownOf(row);
  }

  async waitTimeByOrgName(access: Access, orgName: string): Promise<WaitTime> {
    const row = access.orgs.byName(orgName);
    if (!row) throw notFound('Organisation');
    if (!access.visibleOrgIds.has(row.id)) throw forbidden();
    return { orgId: row.id, waitTime: row.waitTimeSeconds };
  }
  /** Ships the user may see, optionally limited to the given ids (ids they may not see are left out). */
  async visibleShips(access: Access, shipIds?: readonly string[]): Promise<{ id: string; name: string }[]> {
    const orgIds = [...access.visibleOrgIds];
    if (orgIds.length === 0 || shipIds?.length === 0) return [];
    return this.repo.ships(orgIds, shipIds);
  }

  /**
   * The ships a STOMP destination speaks of: /shipStatus, /pictures, /budget and /events/{shipName}
   * name a ship; /mediaList/{instance} names a ship (its name is the instance of most sources) or a
   * landsea instance (cctvInstanceId).
   */
  async shipsForDestination(destination: string): Promise<ShipRow[]> {
    const d = parseDestination(destination);
    if (!d || d.kind === 'carousel' || d.kind === 'ptz') return [];
    if (d.kind === 'shipStatus' || d.kind === 'pictures' || d.kind === 'budget' || d.kind === 'events') return this.repo.shipsNamed(d.shipName);
    // The database narrows the candidates; cameraSource, the one rule of where a camera's status is
    // published, decides.
    const rows = await this.repo.shipsMentioning(d.instanceId);
    const ships = new Map<string, ShipRow>();
    for (const r of rows) {
      const publishesHere =
        r.ship.name === d.instanceId || (r.sourceType !== null && r.other !== null && cameraSource(r.sourceType, r.other, r.ship.name).instanceId === d.instanceId);
      if (publishesHere) ships.set(r.ship.id, r.ship);
    }
    return [...ships.values()];
  }

  /** A user may subscribe to a destination when every ship it speaks of is theirs to see. */
  async canSubscribe(access: Access, destination: string): Promise<boolean> {
    const ships = await this.shipsForDestination(destination);
    return ships.length > 0 && ships.every((s) => access.visibleOrgIds.has(s.orgId));
  }
}

/** An organisation's continuous-watching limit as the API answers it. */
function autoShutdownOf(org: Organisation): PlaybackAutoShutdown {
  return { orgId: org.id, enabled: org.autoShutdownEnabled, minutes: org.autoShutdownMinutes, countdownSeconds: org.autoShutdownCountdownSeconds };
}

export function toShip(s: ShipRow, orgName: string): Ship {
  return { id: s.id, name: s.name, enName: s.enName, orgId: s.orgId, orgName, jsonObject: s.jsonObject, timeZone: s.timeZone };
}
