import { type Server, createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@ship-cctv/server';
import type { Database } from '@ship-cctv/server/db';
import { freshDatabase } from '../../../apps/server/test/helpers/database.ts';
import { WebSocketServer } from 'ws';
import { CLOSE_RETRY_LATER, type LinkReport, type MediaListMessage, type ShipStatusMessage } from '@ship-cctv/protocol';
import { type AgentOptions, type LinkStatusSource, ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, LinkShaper, PROFILES } from '@ship-cctv/simulator';
import { type Shore, StatusWatcher, signIn, startShore } from './helpers/shore.ts';

/** One ship per scenario, so a late message of one cannot satisfy another's wait. */
const RESTARTED = { id: 'S1001', name: '蓝海之星', camera: 'S1001-C01-1' };
const REPLACED = { id: 'S1003', name: '远航号' };
const KILLED = { id: 'S1002', name: '蓝海明珠' };
/** What the shore helper uses: a silent link is given up after 1 s. */
const LIVENESS = { pingMs: 200, timeoutMs: 1_000 };

const status = (name: string) => `/shipStatus/${name}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function staticLink(report: LinkReport): LinkStatusSource {
  return { current: () => report, onChange: () => () => undefined };
}

/** A shore on a given port (a restart keeps the port the agents dial), on the shared database. */
async function startShoreOn(port: number, database: Database): Promise<Shore> {
  const app = await buildApp({ seedDemo: true, database, liveness: LIVENESS });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, port, url: `ws://127.0.0.1:${port}`, close: () => app.close() };
}

/** Resolves with the reason of the agent's next 'disconnected'. */
function nextDisconnect(agent: ShipAgent): Promise<string> {
  return new Promise((resolve) => agent.once('disconnected', resolve));
}

function nextConnect(agent: ShipAgent): Promise<void> {
  return new Promise((resolve) => agent.once('connected', () => resolve()));
}

describe('agent reconnect and resume', () => {
  let database: Database;
  let shore: Shore;
  let watcher: StatusWatcher;
  /** The watcher's session: one sign-in per shore, as a second one would displace it. */
  let token = '';
  const agents: ShipAgent[] = [];
  const closers: (() => Promise<void>)[] = [];

  /** Signs in (displacing the previous demo session) and watches every ship of this file. */
  async function watch(): Promise<StatusWatcher> {
    token = await signIn(shore.app);
    const w = await StatusWatcher.connect(shore.port, token);
    for (const ship of [RESTARTED, REPLACED, KILLED]) w.subscribe(status(ship.name));
    w.subscribe(`/mediaList/${RESTARTED.name}`);
    return w;
  }

  async function agentFor(ship: { id: string }, link: LinkReport, opts: AgentOptions, shoreUrl = shore.url, key?: string): Promise<ShipAgent> {
    const agent = new ShipAgent(
      { shoreUrl, shipId: ship.id, key: key ?? (await shore.app.agentKeys.issue(ship.id)), cameras: ship === RESTARTED ? [{ cameraId: RESTARTED.camera, source: 'synthetic' }] : [] },
      staticLink(link),
      { cameraKinds: [syntheticCameras()], ...opts },
    );
    agents.push(agent);
    return agent;
  }

  /** Answers getShipStatus for one ship, with the watcher's session. */
  async function shipStatus(shipId: string): Promise<{ status: string; online: boolean }> {
    const res = await shore.app.inject({
      method: 'POST',
      url: '/api/v1/cctv-server/getShipStatus',
      headers: { 'cas-jwt': token },
      payload: { shipIds: [shipId] },
    });
    return res.json<{ data: { status: string; online: boolean }[] }>().data[0] ?? { status: 'missing', online: false };
  }

  // Opening PGlite takes seconds, more when other test files open theirs at the same time.
  beforeAll(async () => {
    database = await freshDatabase('pglite', { seeded: true });
    shore = await startShore({ database });
    watcher = await watch();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
    for (const close of closers.splice(0)) await close();
    watcher.clear();
  });
  afterAll(async () => {
    await watcher?.close();
    await shore?.close();
    await database?.close();
  });

  it('reconnects by itself when shore restarts on the same port and database, and the ship shows its link again', async () => {
    const maxBackoffMs = 400;
    const agent = await agentFor(RESTARTED, { linkType: 'VSAT', quality: 77, duplex: 'BOTH' }, { minBackoffMs: 100, maxBackoffMs });
    const disconnects: number[] = [];
    agent.on('disconnected', () => disconnects.push(Date.now()));
    agent.start();
    await watcher.waitFor<ShipStatusMessage>(status(RESTARTED.name), (m) => m.status === 'VSAT' && m.quality === 77);

    // Shore goes away: the agent's link closes and its redials are refused.
    const lost = nextDisconnect(agent);
    await watcher.close();
    await shore.close();
    await lost;
    expect(agent.connected).toBe(false);
    await sleep(1_500);
    // 100, 200, 400, 400 ms (±20 %): several refused attempts, each one a 'disconnected'.
    expect(disconnects.length).toBeGreaterThanOrEqual(4);

    // A new shore on the same port and database: nothing is told to the agent, it just gets in.
    const back = nextConnect(agent);
    shore = await startShoreOn(shore.port, database);
    const upAt = Date.now();
    await back;
    // The next attempt comes within the capped backoff (+20 % jitter), plus the handshake.
    expect(Date.now() - upAt).toBeLessThan(maxBackoffMs * 1.2 + 1_000);
    expect(shore.app.agents.get(RESTARTED.id)).toBeDefined();

    // Shore kept no status across the restart: what it shows comes from the agent's hello (resume).
    watcher = await watch();
    await watcher.waitFor<ShipStatusMessage>(status(RESTARTED.name), (m) => m.status === 'VSAT' && m.quality === 77);
    await watcher.waitFor<MediaListMessage>(`/mediaList/${RESTARTED.name}`, (m) => m.sourceId === RESTARTED.camera && m.status === 'ONLINE');
    expect(await shipStatus(RESTARTED.id)).toMatchObject({ status: 'VSAT', online: true });
  });

  it('a second connection for the same ship replaces the first (closed with 4000) and the ship stays online', async () => {
    const key = await shore.app.agentKeys.issue(REPLACED.id);
    // The replaced agent would redial and take the link back; here it waits a minute first.
    const first = await agentFor(REPLACED, { linkType: 'VSAT', quality: 61, duplex: 'BOTH' }, { minBackoffMs: 60_000 }, shore.url, key);
    first.start();
    await watcher.waitFor<ShipStatusMessage>(status(REPLACED.name), (m) => m.status === 'VSAT' && m.quality === 61);
    const firstConn = shore.app.agents.get(REPLACED.id);

    watcher.clear();
    const replaced = nextDisconnect(first);
    const second = await agentFor(REPLACED, { linkType: 'FBB', quality: 62, duplex: 'BOTH' }, { minBackoffMs: 60_000 }, shore.url, key);
    second.start();
    expect(await replaced).toMatch(/^4000\b/);
    await watcher.waitFor<ShipStatusMessage>(status(REPLACED.name), (m) => m.status === 'FBB' && m.quality === 62);
    expect(shore.app.agents.get(REPLACED.id)).not.toBe(firstConn);
    expect(second.connected).toBe(true);
    expect(first.connected).toBe(false);

    // Longer than shore's silence limit: the old connection's end never turned the ship OFFLINE.
    // (The FBB message above came from the second agent's hello, so the first one's close is past.)
    await sleep(LIVENESS.timeoutMs + 500);
    const seen = (watcher.messages.get(status(REPLACED.name)) ?? []) as ShipStatusMessage[];
    expect(seen.filter((m) => m.status === 'OFFLINE')).toEqual([]);
    expect(shore.app.agents.connectedShips().filter((id) => id === REPLACED.id)).toHaveLength(1);
    expect(await shipStatus(REPLACED.id)).toMatchObject({ status: 'FBB', online: true });
  });

  it('an abrupt end of the TCP connection turns the ship OFFLINE within seconds', async () => {
    // The agent's TCP connection runs through a link emulator; closing it destroys both sockets
    // with no WebSocket close frame, as when the agent's host dies.
    const shaper = new LinkShaper({ target: { port: shore.port }, profile: PROFILES.FOURTHG });
    closers.push(() => shaper.close());
    await shaper.listen();
    const agent = await agentFor(KILLED, { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' }, { minBackoffMs: 60_000 }, `ws://127.0.0.1:${shaper.port}`);
    agent.start();
    await watcher.waitFor<ShipStatusMessage>(status(KILLED.name), (m) => m.status === 'FOURTHG' && m.quality === 90);

    watcher.clear();
    const lost = nextDisconnect(agent);
    const killedAt = Date.now();
    await shaper.close();
    await watcher.waitFor<ShipStatusMessage>(status(KILLED.name), (m) => m.status === 'OFFLINE', 5_000);
    expect(Date.now() - killedAt).toBeLessThan(3_000);
    expect(await lost).toMatch(/^1006\b/);
    expect(shore.app.agents.get(KILLED.id)).toBeUndefined();
    expect(await shipStatus(KILLED.id)).toMatchObject({ status: 'OFFLINE', online: false });
  });

  it('keeps redialling a shore that is down at no more than maxBackoffMs apart', async () => {
    // A dummy "shore" that accepts each TCP connection and drops it at once: every attempt fails.
    const attempts: number[] = [];
    const dummy: Server = createServer((socket) => {
      attempts.push(performance.now());
      socket.destroy();
    });
    closers.push(() => new Promise<void>((resolve) => dummy.close(() => resolve())));
    await new Promise<void>((resolve) => dummy.listen(0, '127.0.0.1', resolve));
    const address = dummy.address();
    if (!address || typeof address === 'string') throw new Error('no port');

    const minBackoffMs = 40;
    const maxBackoffMs = 300;
    const agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${address.port}`, shipId: 'S9999', key: 'no-key', cameras: [] },
      staticLink({ linkType: 'VSAT', quality: 50, duplex: 'BOTH' }),
      { cameraKinds: [syntheticCameras()], minBackoffMs, maxBackoffMs },
    );
    agents.push(agent);
    let disconnects = 0;
    agent.on('disconnected', () => disconnects++);
    agent.start();
    await sleep(3_000);
    await agent.stop();

    const intervals = attempts.slice(1).map((t, i) => t - (attempts[i] ?? t));
    // 40, 80, 160, then 300 ms (±20 %) each: about a dozen attempts in 3 s, never giving up.
    expect(attempts.length).toBeGreaterThanOrEqual(8);
    expect(Math.abs(disconnects - attempts.length)).toBeLessThanOrEqual(1);
    // Capped: no gap beyond the cap plus jitter and timer slack…
    for (const gap of intervals) expect(gap).toBeLessThan(maxBackoffMs * 1.2 + 250);
    // …and the late gaps sit at the cap (no reset to the minimum, no further doubling).
    for (const gap of intervals.slice(-4)) expect(gap).toBeGreaterThan(maxBackoffMs * 0.8 - 20);
    // It started small and doubled.
    expect(intervals[0]).toBeLessThan(intervals[2] ?? 0);
  });

  it("comes back when shore's refusal of its hello says, not sooner", async () => {
    // A "shore" that refuses every hello for now, naming 600 ms, as an instance past its admission rate does.
    const dials: number[] = [];
    const shore = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    closers.push(() => new Promise<void>((resolve) => shore.close(() => resolve())));
    await new Promise<void>((resolve) => shore.once('listening', () => resolve()));
    shore.on('connection', (ws) => {
      dials.push(performance.now());
      ws.once('message', () => {
        ws.send(JSON.stringify({ type: 'error', code: 'retryLater', message: 'come back later', retryAfterMs: 600 }));
        ws.close(CLOSE_RETRY_LATER, 'come back later');
      });
    });
    const address = shore.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${address.port}`, shipId: 'S9998', key: 'no-key', cameras: [] },
      staticLink({ linkType: 'VSAT', quality: 50, duplex: 'BOTH' }),
      { cameraKinds: [syntheticCameras()], minBackoffMs: 40, maxBackoffMs: 300 },
    );
    agents.push(agent);
    const refusals: string[] = [];
    agent.on('refused', (code) => refusals.push(code));
    agent.start();
    await expect.poll(() => dials.length, { timeout: 5_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    await agent.stop();
    expect(refusals.slice(0, 2)).toEqual(['retryLater', 'retryLater']);
    // Its own backoff would have redialled within 300 ms; shore said 600 (and up to a fifth more at random).
    for (const gap of dials.slice(1).map((t, i) => t - (dials[i] ?? t))) {
      expect(gap).toBeGreaterThanOrEqual(600 - 5);
      expect(gap).toBeLessThan(600 * 1.2 + 400);
    }
  });
});
