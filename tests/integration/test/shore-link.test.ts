import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport, MediaListMessage, ShipStatusMessage } from '@ship-cctv/protocol';
import { type LinkStatusSource, ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES } from '@ship-cctv/simulator';
import { type Shore, scrapeMetrics, StatusWatcher, signIn, startShore } from './helpers/shore.ts';

const SHIP = { id: 'S1001', name: '蓝海之星' };
const CAMERAS = [
  { cameraId: 'S1001-C01-1', source: 'synthetic' },
  { cameraId: 'S1001-C02-1', source: 'synthetic' },
];

function staticLink(report: LinkReport): LinkStatusSource & { set(r: LinkReport): void } {
  const listeners = new Set<(r: LinkReport) => void>();
  let current = report;
  return {
    current: () => current,
    onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
    set(r) {
      current = r;
      for (const l of listeners) l(r);
    },
  };
}

describe('a ship agent connected to shore', () => {
  let shore: Shore;
  let key: string;
  let watcher: StatusWatcher;
  /** One sign-in for the whole file: a second sign-in of the same user would displace the watcher's session. */
  let token: string;
  const agents: ShipAgent[] = [];
  const shapers: LinkShaper[] = [];

  beforeAll(async () => {
    shore = await startShore();
    key = await shore.app.agentKeys.issue(SHIP.id);
    token = await signIn(shore.app);
    watcher = await StatusWatcher.connect(shore.port, token);
    watcher.subscribe(`/shipStatus/${SHIP.name}`);
    watcher.subscribe(`/mediaList/${SHIP.name}`);
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
    await Promise.all(shapers.splice(0).map((s) => s.close()));
    watcher.clear();
  });
  afterAll(async () => {
    await watcher?.close();
    await shore?.close();
  });

  it('gives a new subscriber the current state at once (OFFLINE before any agent)', async () => {
    const first = await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, () => true);
    expect(first).toEqual({ status: 'OFFLINE', quality: -1, udpConnectionStats: { duplex: 'NONE' } });
  });

  it('reports link and cameras live over STOMP and REST, and goes OFFLINE when the agent leaves', async () => {
    const link = staticLink({ linkType: 'VSAT', quality: 72, duplex: 'BOTH' });
    const agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP.id, key, cameras: CAMERAS }, link, { cameraKinds: [syntheticCameras()] });
    agents.push(agent);
    agent.start();

    const online = await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'VSAT');
    expect(online).toEqual({ status: 'VSAT', quality: 72, udpConnectionStats: { duplex: 'BOTH' } });
    const cam = await watcher.waitFor<MediaListMessage>(`/mediaList/${SHIP.name}`, (m) => m.sourceId === 'S1001-C01-1' && m.status === 'ONLINE');
    expect(cam.remoteRecord).toBeNull();
    const rec = await watcher.waitFor<MediaListMessage>(`/mediaList/${SHIP.name}`, (m) => m.sourceId === 'S1001-C01-1' && m.remoteRecord === true);
    expect(rec.recorder).toBe('ship');

    link.set({ linkType: 'FBB', quality: 41, duplex: 'BOTH' });
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'FBB' && m.quality === 41);

    const ships = await shore.app.inject({ method: 'POST', url: '/api/v1/cctv-server/getShipStatus', headers: { 'cas-jwt': token }, payload: { shipIds: [SHIP.id, 'S1002'] } });
    expect(ships.json().data).toEqual([
      expect.objectContaining({ shipId: SHIP.id, status: 'FBB', quality: 41, online: true }),
      expect.objectContaining({ shipId: 'S1002', status: 'OFFLINE', online: false }),
    ]);
    const cams = await shore.app.inject({ url: `/api/v1/cctv-server/session/getCameraStatus/${SHIP.id}`, headers: { 'cas-jwt': token } });
    const byId = new Map(cams.json<{ data: { cameraId: string; online: boolean }[] }>().data.map((c) => [c.cameraId, c.online]));
    expect(byId.get('S1001-C01-1')).toBe(true);
    expect(byId.get('S1001-C02-1')).toBe(true);
    // A camera the agent does not run stays offline.
    expect(byId.get('S1001-C03-1')).toBe(false);

    watcher.clear();
    await agent.stop();
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'OFFLINE', 5_000);
    await watcher.waitFor<MediaListMessage>(`/mediaList/${SHIP.name}`, (m) => m.sourceId === 'S1001-C01-1' && m.status === 'OFFLINE', 5_000);
  });

  it('refuses an agent with a wrong key before the socket opens', async () => {
    const agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP.id, key: 'not-the-key', cameras: CAMERAS }, staticLink({ linkType: 'VSAT', quality: 50, duplex: 'BOTH' }), { cameraKinds: [syntheticCameras()], minBackoffMs: 60_000 });
    agents.push(agent);
    const rejected = new Promise<number>((resolve) => agent.once('rejected', resolve));
    agent.start();
    expect(await rejected).toBe(401);
    expect(shore.app.agents.get(SHIP.id)).toBeUndefined();
  });

  it('notices a silent satellite link within seconds, then resumes when the link returns', async () => {
    const shaper = new LinkShaper({ target: { port: shore.port }, profile: PROFILES.VSAT, dropAfterMs: 2_500 });
    shapers.push(shaper);
    await shaper.listen();
    const agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: SHIP.id, key, cameras: CAMERAS },
      staticLink({ linkType: 'VSAT', quality: 80, duplex: 'BOTH' }),
      { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 500 },
    );
    agents.push(agent);
    agent.start();
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'VSAT');

    watcher.clear();
    const silentAt = Date.now();
    shaper.setOutage(true);
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'OFFLINE', 5_000);
    // Shore's silence limit in this test is 1 s; it must not wait for TCP to give up.
    expect(Date.now() - silentAt).toBeLessThan(4_000);

    watcher.clear();
    shaper.setOutage(false);
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'VSAT', 10_000);
    await watcher.waitFor<MediaListMessage>(`/mediaList/${SHIP.name}`, (m) => m.sourceId === 'S1001-C02-1' && m.status === 'ONLINE');
  });

  it('counts the bytes of the link per direction and purpose in /metrics', async () => {
    const agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP.id, key, cameras: CAMERAS }, staticLink({ linkType: 'VSAT', quality: 60, duplex: 'BOTH' }), { cameraKinds: [syntheticCameras()] });
    agents.push(agent);
    agent.start();
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'VSAT' && m.quality === 60);
    const text = await scrapeMetrics(shore.app);
    const value = (direction: string, purpose: string) => {
      const m = new RegExp(`^shipcctv_link_bytes_total\\{ship="${SHIP.id}",direction="${direction}",purpose="${purpose}"\\} (\\d+)$`, 'm').exec(text);
      return m ? Number(m[1]) : undefined;
    };
    // The hello alone is a few hundred bytes up; the welcome comes down.
    expect(value('up', 'control')).toBeGreaterThan(200);
    expect(value('down', 'control')).toBeGreaterThan(30);
    // A purpose gets its series when the link first carries a stream of it: no live one for a ship
    // nobody watches (each series is memory on the instance, for thousands of ships that never send
    // video). The pictures' outbox may have opened its stream; nothing came down on it.
    expect(value('up', 'live')).toBeUndefined();
    expect(value('down', 'pictures') ?? 0).toBe(0);
    expect(text).toMatch(/^http_requests_total\{/m);
    expect(text).toMatch(/^process_memory_bytes\{kind="rss"\} \d+/m);
  });
});
