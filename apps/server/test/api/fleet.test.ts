import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LIMITS,
  MESSAGES,
  PRODUCT_VERSION,
  SOURCE_TYPE_NAMES,
  TOKEN_HEADER,
  type Channel,
  type ChannelTag,
  type OrgShipTreeNode,
  type PlaybackAutoShutdown,
  type ShipConfig,
  type ShipsAndChannels,
  type WaitTime,
} from '@ship-cctv/protocol';
import { demoOrganizations, demoShips } from '../../src/core/db/demo-fleet.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { addUser } from '../helpers/users.ts';

const CCTV = '/api/v1/cctv';
const TREE = `${CCTV}/monitor/getOrgShipTreeUnion`;
const channelUrl = (shipId: string) => `${CCTV}/monitor/getChannel/${encodeURIComponent(shipId)}`;
const groupUrl = (q: Record<string, string>) => `${CCTV}/shipGroup/ship/list?${new URLSearchParams(q).toString()}`;
const tagUrl = (orgId?: string) => `${CCTV}/channel/tag/list${orgId === undefined ? '' : `?orgId=${encodeURIComponent(orgId)}`}`;
const statsUrl = (orgId: string) => `${CCTV}/statistics/shipsAndChannels/${encodeURIComponent(orgId)}`;
const shutdownUrl = (orgId: string) => `${CCTV}/playbackautoshutdown/findByOrgId?orgID=${encodeURIComponent(orgId)}`;
const waitUrl = (orgName: string) => `${CCTV}/ship/waitTime?orgName=${encodeURIComponent(orgName)}`;

interface Body<T = unknown> {
  code: number;
  message: string;
  data: T;
}

function expectOk<T>(res: LightMyRequestResponse): T {
  expect(res.statusCode, res.body).toBe(200);
  const b = res.json<Body<T>>();
  expect(b.code).toBe(200);
  expect(b.message).toBe('SUCCESS');
  return b.data;
}

function expectError(res: LightMyRequestResponse, status: number, message?: string | RegExp): void {
  expect(res.statusCode, res.body).toBe(status);
  const b = res.json<Body>();
  expect(b.code).toBe(status);
  expect(b.data).toBeNull();
  expect(b.message.length).toBeGreaterThan(0);
  if (typeof message === 'string') expect(b.message).toBe(message);
  else if (message) expect(b.message).toMatch(message);
}

const orgOf = (id: string) => {
  const org = demoOrganizations.find((o) => o.id === id);
  if (!org) throw new Error(`no demo org ${id}`);
  return org;
};
const shipsOf = (orgIds: string[]) => demoShips.filter((s) => orgIds.includes(s.orgId));
const LANDSEA = new Set(['xplus', 'xplus-remote']);

/** Every node of a tree, depth first. */
function flatten(nodes: OrgShipTreeNode[]): OrgShipTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.orgShipTreeNodes)]);
}

describe('fleet API', () => {
  let t: TestApp;
  const tokens = { demo: '', njzsz: '', tanker: '' };

  const get = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token === undefined ? {} : { [TOKEN_HEADER]: token } });

  beforeAll(async () => {
    t = await build();
    await addUser(t.app.database.db, { id: 'u-tanker', username: 'tanker', orgIds: ['blueocean-tankers'] });
    tokens.demo = (await logon(t.app, 'demo')).token;
    tokens.njzsz = (await logon(t.app, 'njzsz')).token;
    tokens.tanker = (await logon(t.app, 'tanker')).token;
  });
  afterAll(() => t?.close());

  describe('GET /monitor/getOrgShipTreeUnion', () => {
    it('gives demo both top-level organisations, the tankers nested under blueocean, ships in shipList', async () => {
      const res = await get(TREE, tokens.demo);
      const data = expectOk<{ orgShipTreeNodes: OrgShipTreeNode[] }>(res);
      const roots = data.orgShipTreeNodes;
      expect(roots.map((n) => n.organizationid).sort()).toEqual(['blueocean', 'njzsz']);

      const blueocean = roots.find((n) => n.organizationid === 'blueocean');
      expect(blueocean?.organizationname).toBe(orgOf('blueocean').name);
      expect(blueocean?.parentId).toBeNull();
      expect(blueocean?.orgShipTreeNodes.map((n) => n.organizationid)).toEqual(['blueocean-tankers']);
      const tankers = blueocean?.orgShipTreeNodes[0];
      expect(tankers?.parentId).toBe('blueocean');
      expect(tankers?.organizationname).toBe(orgOf('blueocean-tankers').name);
      expect(tankers?.orgShipTreeNodes).toEqual([]);

      // Every organisation lists exactly its own ships (not its children's).
      for (const node of flatten(roots)) {
        const expected = shipsOf([node.organizationid]).map((s) => s.id).sort();
        expect(node.shipList.map((s) => s.id).sort(), node.organizationid).toEqual(expected);
        for (const ship of node.shipList) {
          const demo = demoShips.find((s) => s.id === ship.id);
          expect(ship).toMatchObject({ name: demo?.name, enName: demo?.enName, orgId: node.organizationid, orgName: node.organizationname });
          expect(ship.jsonObject.version).toEqual(expect.any(String));
          const xplus = ship.jsonObject.third.find((e) => e.type === 'xplus');
          expect(xplus?.thirdId).toBe(demo?.xplusId);
        }
      }
      // All seven demo ships are reachable once each.
      const all = flatten(roots).flatMap((n) => n.shipList.map((s) => s.id));
      expect(all.sort()).toEqual(demoShips.map((s) => s.id).sort());
    });

    it('gives the njzsz user only njzsz', async () => {
      const data = expectOk<{ orgShipTreeNodes: OrgShipTreeNode[] }>(await get(TREE, tokens.njzsz));
      const nodes = flatten(data.orgShipTreeNodes);
      expect(nodes.map((n) => n.organizationid)).toEqual(['njzsz']);
      expect(nodes[0]?.shipList.map((s) => s.id).sort()).toEqual(shipsOf(['njzsz']).map((s) => s.id).sort());
    });

    it('roots a member of a sub-organisation at that sub-organisation, without the parent', async () => {
      const data = expectOk<{ orgShipTreeNodes: OrgShipTreeNode[] }>(await get(TREE, tokens.tanker));
      expect(data.orgShipTreeNodes.map((n) => n.organizationid)).toEqual(['blueocean-tankers']);
      expect(JSON.stringify(data)).not.toContain('S1001');
    });

    it('answers 401 without a token', async () => {
      expectError(await get(TREE), 401, MESSAGES.authFailed);
    });
  });

  describe('GET /monitor/getChannel/{shipId}', () => {
    it("lists a ship's channels with their cameras, the blocked one with block 1", async () => {
      const channels = expectOk<Channel[]>(await get(channelUrl('S1001'), tokens.demo));
      const demo = demoShips.find((s) => s.id === 'S1001');
      expect(channels.map((c) => c.name)).toEqual(demo?.channels.map((c) => c.name));
      for (const c of channels) {
        expect(c.shipId).toBe('S1001');
        expect(c.cameras.length).toBeGreaterThanOrEqual(1);
      }
      const blocked = channels.filter((c) => c.block === 1);
      expect(blocked.map((c) => c.name)).toEqual(['Crew Mess']);
      expect(channels.filter((c) => c.block === 0)).toHaveLength(channels.length - 1);
      // Channel ids are unique.
      expect(new Set(channels.map((c) => c.id)).size).toBe(channels.length);
    });

    it('gives the multi-camera channel two cameras, landsea cameras cctvInstanceId=…|iosChannelId=…', async () => {
      const channels = expectOk<Channel[]>(await get(channelUrl('S1002'), tokens.demo));
      const mainDeck = channels.find((c) => c.name === 'Main Deck');
      expect(mainDeck?.cameras).toHaveLength(2);
      expect(new Set(mainDeck?.cameras.map((c) => c.id)).size).toBe(2);
      const cameras = channels.flatMap((c) => c.cameras);
      expect(cameras.length).toBeGreaterThan(0);
      for (const camera of cameras) {
        expect(LANDSEA.has(camera.sourceType)).toBe(true);
        // The web app takes the instance id after cctvInstanceId= up to the bar, the camera after iosChannelId=.
        const m = /^cctvInstanceId=([^|]+)\|iosChannelId=(.+)$/.exec(camera.other);
        expect(m, camera.other).not.toBeNull();
        expect(m?.[1]).toBe('XP-2002');
      }
      // Two cameras of one ship never share an iosChannelId.
      const ios = cameras.map((c) => c.other.split('iosChannelId=')[1]);
      expect(new Set(ios).size).toBe(ios.length);
    });

    it('gives other sources cameraId=<camera>', async () => {
      const channels = expectOk<Channel[]>(await get(channelUrl('S2002'), tokens.demo));
      const cameras = channels.flatMap((c) => c.cameras);
      expect(cameras.length).toBeGreaterThan(0);
      for (const camera of cameras) {
        expect(LANDSEA.has(camera.sourceType)).toBe(false);
        expect(camera.other).toBe(`cameraId=${camera.id}`);
      }
    });

    it('covers every source type across the fleet, each camera in the form its source type calls for', async () => {
      const seen = new Set<string>();
      for (const ship of demoShips) {
        const channels = expectOk<Channel[]>(await get(channelUrl(ship.id), tokens.demo));
        expect(channels).toHaveLength(ship.channels.length);
        for (const camera of channels.flatMap((c) => c.cameras)) {
          seen.add(camera.sourceType);
          expect(camera.other).toMatch(LANDSEA.has(camera.sourceType) ? /^cctvInstanceId=[^|]+\|iosChannelId=\S+$/ : /^cameraId=\S+$/);
        }
      }
      expect([...seen].sort()).toEqual([...SOURCE_TYPE_NAMES].sort());
    });

    it('lets a member of the parent read a sub-organisation ship, and the sub-organisation member too', async () => {
      expect(expectOk<Channel[]>(await get(channelUrl('S2001'), tokens.demo)).length).toBeGreaterThan(0);
      expect(expectOk<Channel[]>(await get(channelUrl('S2001'), tokens.tanker)).length).toBeGreaterThan(0);
    });

    it('answers 403 "You do not have permission to do this" across organisations', async () => {
      expectError(await get(channelUrl('S1001'), tokens.njzsz), 403, 'You do not have permission to do this');
      expectError(await get(channelUrl('S2001'), tokens.njzsz), 403, MESSAGES.forbidden);
      // A sub-organisation member may not look up into the parent.
      expectError(await get(channelUrl('S1001'), tokens.tanker), 403, MESSAGES.forbidden);
      expectError(await get(channelUrl('S3001'), tokens.tanker), 403, MESSAGES.forbidden);
    });

    it('answers an unknown ship as another organisation’s (403, same message): ship ids outside the user’s stay unknown', async () => {
      expectError(await get(channelUrl('S9999'), tokens.demo), 403, MESSAGES.forbidden);
    });

    it('answers 400 for a malformed ship id, 401 without a token', async () => {
      expectError(await get(channelUrl('S'.repeat(65)), tokens.demo), 400);
      expectError(await get(channelUrl('S1001')), 401, MESSAGES.authFailed);
    });
  });

  describe('GET /shipGroup/ship/list', () => {
    it("gives the ship's definition groups with models (size, rate, bitrate), the default group, talk and audio", async () => {
      const data = expectOk<{ data: ShipConfig }>(await get(groupUrl({ orgId: 'blueocean', shipId: 'S1001' }), tokens.demo));
      const config = data.data;
      const demo = demoShips.find((s) => s.id === 'S1001');
      expect(config.talk).toBe(demo?.talk);
      expect(config.audio).toBe(demo?.audio);
      expect(config.groupAliasResDTOS.length).toBeGreaterThan(0);
      const withModels = config.groupAliasResDTOS.filter((g) => g.models.length > 0);
      expect(withModels.length).toBeGreaterThan(0);
      for (const g of withModels) {
        for (const m of g.models) {
          expect(m).toEqual({
            id: expect.any(Number),
            displayName: expect.any(String),
            displayNameEn: expect.any(String),
            width: expect.any(Number),
            height: expect.any(Number),
            frameRate: expect.any(Number),
            bitrateKbps: expect.any(Number),
            codec: expect.any(String),
          });
          expect(m.width).toBeGreaterThan(0);
          expect(m.height).toBeGreaterThan(0);
          expect(m.frameRate).toBeGreaterThan(0);
          expect(m.bitrateKbps).toBeGreaterThan(0);
        }
        // The default model belongs to its group.
        if (g.defaultModelId !== null) expect(g.models.map((m) => m.id)).toContain(g.defaultModelId);
      }
      // Names in both languages: the spec's displayName in Chinese, the English one beside it.
      expect(withModels[0]?.models.map((m) => [m.displayName, m.displayNameEn])).toEqual([
        ['流畅 320×180', 'Smooth 320×180'],
        ['标清 640×360', 'Standard 640×360'],
        ['高清 1280×720', 'HD 1280×720'],
        ['卫星 320×180 H.264', 'Satellite 320×180 H.264'],
        ['卫星 320×180 AV1', 'Satellite 320×180 AV1'],
      ]);
      // The satellite tier comes in both codecs the agent encodes.
      expect(withModels[0]?.models.filter((m) => m.bitrateKbps <= 32).map((m) => m.codec)).toEqual(['h264', 'av1']);
      expect(withModels[0]?.displayNameEn).toBe('Standard');
      // The default group exists among the groups and has a default model; it is the spec's default config id (6).
      const defaultGroup = config.groupAliasResDTOS.find((g) => g.id === config.defaultGroupId);
      expect(defaultGroup).toBeDefined();
      expect(defaultGroup?.defaultModelId).toBe(LIMITS.defaultConfigId);
      // At least three tiers, no two the same (size, rate, bitrate and codec).
      const models = defaultGroup?.models ?? [];
      expect(models.length).toBeGreaterThanOrEqual(3);
      expect(new Set(models.map((m) => `${m.width}x${m.height}@${m.frameRate}/${m.bitrateKbps}/${m.codec}`)).size).toBe(models.length);
    });

    it('gives S2002 defaultGroupId null (no default definition template)', async () => {
      const data = expectOk<{ data: ShipConfig }>(await get(groupUrl({ orgId: 'blueocean-tankers', shipId: 'S2002' }), tokens.demo));
      expect(data.data.defaultGroupId).toBeNull();
      // Every other ship has a default group.
      for (const ship of demoShips.filter((s) => s.id !== 'S2002')) {
        const other = expectOk<{ data: ShipConfig }>(await get(groupUrl({ orgId: ship.orgId, shipId: ship.id }), tokens.demo));
        expect(other.data.defaultGroupId, ship.id).not.toBeNull();
      }
    });

    it('answers talk and audio per ship', async () => {
      for (const ship of demoShips) {
        const data = expectOk<{ data: ShipConfig }>(await get(groupUrl({ orgId: ship.orgId, shipId: ship.id }), tokens.demo));
        expect({ talk: data.data.talk, audio: data.data.audio }, ship.id).toEqual({ talk: ship.talk, audio: ship.audio });
      }
    });

    it('answers 400 when orgId or shipId is missing or empty', async () => {
      expectError(await get(groupUrl({ orgId: 'blueocean' }), tokens.demo), 400, /shipId/);
      expectError(await get(groupUrl({ shipId: 'S1001' }), tokens.demo), 400, /orgId/);
      expectError(await get(groupUrl({ orgId: '', shipId: 'S1001' }), tokens.demo), 400, /orgId/);
      expectError(await get(`${CCTV}/shipGroup/ship/list`, tokens.demo), 400);
    });

    it('answers 403 across organisations', async () => {
      expectError(await get(groupUrl({ orgId: 'blueocean', shipId: 'S1001' }), tokens.njzsz), 403, MESSAGES.forbidden);
      // Own organisation, someone else's ship.
      expectError(await get(groupUrl({ orgId: 'njzsz', shipId: 'S1001' }), tokens.njzsz), 403, MESSAGES.forbidden);
    });

    it('answers 404 for an unknown organisation and for a ship of another organisation, 403 for an unknown ship', async () => {
      expectError(await get(groupUrl({ orgId: 'nowhere', shipId: 'S1001' }), tokens.demo), 404);
      expectError(await get(groupUrl({ orgId: 'blueocean', shipId: 'S9999' }), tokens.demo), 403, MESSAGES.forbidden);
      expectError(await get(groupUrl({ orgId: 'njzsz', shipId: 'S1001' }), tokens.demo), 404);
    });

    it('answers 401 without a token', async () => {
      expectError(await get(groupUrl({ orgId: 'blueocean', shipId: 'S1001' })), 401);
    });
  });

  describe('GET /channel/tag/list', () => {
    async function visibleChannels(token: string, shipIds: string[]): Promise<Map<string, Channel>> {
      const out = new Map<string, Channel>();
      for (const id of shipIds) for (const c of expectOk<Channel[]>(await get(channelUrl(id), token))) out.set(c.id, c);
      return out;
    }

    it("lists tags of the user's organisations, each naming channels the user can see", async () => {
      const tags = expectOk<ChannelTag[]>(await get(tagUrl(), tokens.demo));
      expect(tags.length).toBeGreaterThan(0);
      expect(new Set(tags.map((tag) => tag.orgId))).toEqual(new Set(['blueocean', 'njzsz']));
      const channels = await visibleChannels(tokens.demo, demoShips.map((s) => s.id));
      for (const tag of tags) {
        for (const id of tag.channelIds) expect(channels.has(id), `${tag.name} ${id}`).toBe(true);
      }
      // The navigation tag holds the bridges.
      const nav = tags.filter((tag) => tag.name === 'Navigation');
      expect(nav.length).toBeGreaterThan(0);
      for (const id of nav.flatMap((tag) => tag.channelIds)) expect(channels.get(id)?.name).toMatch(/bridge/i);
    });

    it('filters by orgId', async () => {
      const tags = expectOk<ChannelTag[]>(await get(tagUrl('njzsz'), tokens.demo));
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.every((tag) => tag.orgId === 'njzsz')).toBe(true);
      const all = expectOk<ChannelTag[]>(await get(tagUrl(), tokens.demo));
      expect(tags).toEqual(all.filter((tag) => tag.orgId === 'njzsz'));
    });

    it('gives the njzsz user only njzsz tags, naming only njzsz channels', async () => {
      const tags = expectOk<ChannelTag[]>(await get(tagUrl(), tokens.njzsz));
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.every((tag) => tag.orgId === 'njzsz')).toBe(true);
      const channels = await visibleChannels(tokens.njzsz, shipsOf(['njzsz']).map((s) => s.id));
      for (const id of tags.flatMap((tag) => tag.channelIds)) expect(channels.has(id)).toBe(true);
    });

    it('answers 403 across organisations, 404 for an unknown one', async () => {
      expectError(await get(tagUrl('blueocean'), tokens.njzsz), 403, MESSAGES.forbidden);
      expectError(await get(tagUrl('blueocean-tankers'), tokens.njzsz), 403, MESSAGES.forbidden);
      expectError(await get(tagUrl('nowhere'), tokens.demo), 404);
    });

    it('answers 400 for an empty or over-long orgId, 401 without a token', async () => {
      expectError(await get(tagUrl(''), tokens.demo), 400, /orgId/);
      expectError(await get(tagUrl('o'.repeat(65)), tokens.demo), 400, /orgId/);
      expectError(await get(tagUrl()), 401);
    });
  });

  describe('GET /statistics/shipsAndChannels/{orgId}', () => {
    /** The counts, worked out from getChannel over the ships of the subtree in the tree answer. */
    async function expectedCounts(token: string, orgId: string): Promise<Omit<ShipsAndChannels, 'orgId'>> {
      const tree = expectOk<{ orgShipTreeNodes: OrgShipTreeNode[] }>(await get(TREE, token));
      const node = flatten(tree.orgShipTreeNodes).find((n) => n.organizationid === orgId);
      if (!node) throw new Error(`${orgId} not in the tree`);
      const ships = flatten([node]).flatMap((n) => n.shipList);
      const out = { shipCount: ships.length, channelCount: 0, blockedChannelCount: 0, cameraCount: 0 };
      for (const ship of ships) {
        for (const c of expectOk<Channel[]>(await get(channelUrl(ship.id), token))) {
          if (c.block === 1) out.blockedChannelCount++;
          else {
            out.channelCount++;
            out.cameraCount += c.cameras.length;
          }
        }
      }
      return out;
    }

    it('counts the organisation and its sub-organisations consistently with getChannel', async () => {
      for (const [token, orgId] of [
        [tokens.demo, 'blueocean'],
        [tokens.demo, 'blueocean-tankers'],
        [tokens.demo, 'njzsz'],
        [tokens.njzsz, 'njzsz'],
        [tokens.tanker, 'blueocean-tankers'],
      ] as const) {
        const stats = expectOk<ShipsAndChannels>(await get(statsUrl(orgId), token));
        expect(stats.orgId).toBe(orgId);
        expect(stats, orgId).toEqual({ orgId, ...(await expectedCounts(token, orgId)) });
      }
    });

    it('includes the sub-organisation: blueocean counts more than the sum of its own ships', async () => {
      const parent = expectOk<ShipsAndChannels>(await get(statsUrl('blueocean'), tokens.demo));
      const child = expectOk<ShipsAndChannels>(await get(statsUrl('blueocean-tankers'), tokens.demo));
      expect(parent.shipCount).toBe(shipsOf(['blueocean', 'blueocean-tankers']).length);
      expect(child.shipCount).toBe(shipsOf(['blueocean-tankers']).length);
      expect(parent.blockedChannelCount).toBe(1);
      expect(child.blockedChannelCount).toBe(0);
    });

    it('answers 403 across organisations, 404 unknown, 400 malformed, 401 without a token', async () => {
      expectError(await get(statsUrl('blueocean'), tokens.njzsz), 403, MESSAGES.forbidden);
      expectError(await get(statsUrl('blueocean'), tokens.tanker), 403, MESSAGES.forbidden);
      expectError(await get(statsUrl('nowhere'), tokens.demo), 404);
      expectError(await get(statsUrl('o'.repeat(65)), tokens.demo), 400);
      expectError(await get(statsUrl('blueocean')), 401);
    });
  });

  describe('GET /playbackautoshutdown/findByOrgId', () => {
    it('answers the 20-minute continuous watching limit by default', async () => {
      const data = expectOk<PlaybackAutoShutdown>(await get(shutdownUrl('blueocean'), tokens.demo));
      expect(data.orgId).toBe('blueocean');
      expect(data.enabled).toBe(true);
      expect(data.minutes).toBe(20);
      expect(data.minutes).toBe(LIMITS.continuousWatchMinutes);
      expect(data.countdownSeconds).toBeGreaterThan(0);
      const njzsz = expectOk<PlaybackAutoShutdown>(await get(shutdownUrl('njzsz'), tokens.njzsz));
      expect(njzsz).toMatchObject({ orgId: 'njzsz', minutes: 20 });
    });

    it('answers 400 without orgID (the parameter is spelled orgID)', async () => {
      expectError(await get(`${CCTV}/playbackautoshutdown/findByOrgId`, tokens.demo), 400, /orgID/);
      expectError(await get(`${CCTV}/playbackautoshutdown/findByOrgId?orgId=blueocean`, tokens.demo), 400, /orgID/);
      expectError(await get(shutdownUrl(''), tokens.demo), 400);
    });

    it('answers 403 across organisations, 404 unknown, 401 without a token', async () => {
      expectError(await get(shutdownUrl('blueocean'), tokens.njzsz), 403, MESSAGES.forbidden);
      expectError(await get(shutdownUrl('nowhere'), tokens.demo), 404);
      expectError(await get(shutdownUrl('blueocean')), 401);
    });
  });

  describe('POST /playbackautoshutdown/update', () => {
    const post = (body: unknown, token?: string) =>
      t.app.inject({ method: 'POST', url: `${CCTV}/playbackautoshutdown/update`, payload: body as object, headers: token === undefined ? {} : { [TOKEN_HEADER]: token } });

    it('lets a manager of the organisation, or of one above it, change the limit; GET reads it back', async () => {
      const changed = expectOk<PlaybackAutoShutdown>(await post({ orgId: 'blueocean-tankers', enabled: true, minutes: 1, countdownSeconds: 50 }, tokens.demo));
      expect(changed).toEqual({ orgId: 'blueocean-tankers', enabled: true, minutes: 1, countdownSeconds: 50 });
      expect(expectOk<PlaybackAutoShutdown>(await get(shutdownUrl('blueocean-tankers'), tokens.tanker))).toEqual(changed);
      const off = expectOk<PlaybackAutoShutdown>(await post({ orgId: 'blueocean-tankers', enabled: false, minutes: 20, countdownSeconds: 30 }, tokens.tanker));
      expect(off.enabled).toBe(false);
      // Back to the spec's default for the other tests.
      expectOk(await post({ orgId: 'blueocean-tankers', enabled: true, minutes: LIMITS.continuousWatchMinutes, countdownSeconds: 30 }, tokens.demo));
    });

    it('refuses a countdown not shorter than the limit, out-of-range values, and other organisations', async () => {
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 1, countdownSeconds: 60 }, tokens.demo), 400, /countdown/);
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 0, countdownSeconds: 0 }, tokens.demo), 400);
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 1441, countdownSeconds: 0 }, tokens.demo), 400);
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 2.5, countdownSeconds: 0 }, tokens.demo), 400);
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 5, countdownSeconds: 30 }, tokens.njzsz), 403);
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 5, countdownSeconds: 30 }, tokens.tanker), 403);
      expectError(await post({ orgId: 'nowhere', enabled: true, minutes: 5, countdownSeconds: 30 }, tokens.demo), 404);
      expectError(await post({ orgId: 'blueocean', enabled: true, minutes: 5, countdownSeconds: 30 }), 401);
      expect(expectOk<PlaybackAutoShutdown>(await get(shutdownUrl('blueocean'), tokens.demo)).minutes).toBe(LIMITS.continuousWatchMinutes);
    });
  });

  describe('GET /ship/waitTime', () => {
    it('answers data.waitTime by organisation name', async () => {
      for (const org of demoOrganizations) {
        const data = expectOk<WaitTime>(await get(waitUrl(org.name), tokens.demo));
        expect(data).toEqual({ orgId: org.id, waitTime: org.waitTimeSeconds });
      }
      expect(expectOk<WaitTime>(await get(waitUrl(orgOf('njzsz').name), tokens.njzsz)).waitTime).toBe(orgOf('njzsz').waitTimeSeconds);
    });

    it('answers 403 across organisations, 404 for an unknown name', async () => {
      expectError(await get(waitUrl(orgOf('blueocean').name), tokens.njzsz), 403, MESSAGES.forbidden);
      expectError(await get(waitUrl('No Such Shipping'), tokens.demo), 404);
    });

    it('answers 400 for a missing, empty or over-long orgName, 401 without a token', async () => {
      expectError(await get(`${CCTV}/ship/waitTime`, tokens.demo), 400, /orgName/);
      expectError(await get(waitUrl(''), tokens.demo), 400, /orgName/);
      expectError(await get(waitUrl('n'.repeat(129)), tokens.demo), 400, /orgName/);
      expectError(await get(waitUrl(orgOf('blueocean').name)), 401);
    });
  });

  describe('server routes', () => {
    it('answers an unknown /api route 404 in the envelope, with or without a token', async () => {
      for (const res of [
        await get('/api/v1/cctv/no-such-thing', tokens.demo),
        await get('/api/v1/cctv/no-such-thing'),
        await get('/api/v2/anything'),
        await t.app.inject({ method: 'POST', url: '/api/v1/sys/no-such-thing', payload: {} }),
      ]) {
        expectError(res, 404, /not found/i);
        expect(res.headers['content-type']).toMatch(/application\/json/);
      }
      // A known path with an unsupported method is not found either.
      expectError(await t.app.inject({ method: 'DELETE', url: TREE, headers: { [TOKEN_HEADER]: tokens.demo } }), 404);
    });

    it('answers the runtime config with version V3.5.26', async () => {
      const res = await get('/monitor/static/config-data.json');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const config = res.json<Record<string, unknown>>();
      expect(config.version).toBe('V3.5.26');
      expect(config.version).toBe(PRODUCT_VERSION);
      expect(config).toMatchObject({
        apiBase: '/api/v1',
        stompPath: '/cctvv3-server/cctv/',
        httpTimeoutMs: 40_000,
        heartbeatMs: 60_000,
      });
    });

    it('answers /docs with Swagger UI', async () => {
      let res = await get('/docs');
      for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 3; hops++) {
        const location = String(res.headers.location);
        res = await get(location.startsWith('/') ? location : `/docs/${location.replace(/^\.\//, '')}`);
      }
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toMatch(/swagger/i);
    });

    it('lists the API paths in /docs/json', async () => {
      const res = await get('/docs/json');
      expect(res.statusCode).toBe(200);
      const doc = res.json<{ openapi: string; info: { version: string }; paths: Record<string, unknown> }>();
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.info.version).toBe(PRODUCT_VERSION);
      const paths = Object.keys(doc.paths);
      for (const path of [
        '/api/v1/sys/logon',
        '/api/v1/sys/logout',
        '/api/v1/sys/valid/user',
        '/api/v1/sys/valid/token',
        '/api/v1/cctv/heartbeat',
        '/api/v1/cctv/monitor/getOrgShipTreeUnion',
        '/api/v1/cctv/monitor/getChannel/{id}',
        '/api/v1/cctv/shipGroup/ship/list',
        '/api/v1/cctv/channel/tag/list',
        '/api/v1/cctv/statistics/shipsAndChannels/{id}',
        '/api/v1/cctv/playbackautoshutdown/findByOrgId',
        '/api/v1/cctv/ship/waitTime',
        '/monitor/static/config-data.json',
      ]) {
        expect(paths, path).toContain(path);
      }
      // The SPA redirects are hidden.
      expect(paths).not.toContain('/');
    });
  });
});
