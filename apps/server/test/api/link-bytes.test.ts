import type { LightMyRequestResponse } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AGENT_HEADERS,
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  BINARY_KIND,
  MESSAGES,
  PATHS,
  TOKEN_HEADER,
  type AgentMessage,
  type LinkBytesStatistics,
  type ShipLinkBytes,
} from '@ship-cctv/protocol';
import { wsFrameOverhead } from '../../src/core/ship-link/connection.ts';
import { type TestApp, build, logon, scrapeMetrics } from '../helpers/build.ts';
import { addUser } from '../helpers/users.ts';

const url = (orgId: string, ships?: string) =>
  `/api/v1/cctv/statistics/linkBytes/${encodeURIComponent(orgId)}${ships === undefined ? '' : `?ships=${encodeURIComponent(ships)}`}`;

/**
 * A ship agent reduced to what these tests need: it dials the real agent link with its key, says
 * hello and sends binary media frames of the given purpose (a stream id shore does not know is
 * counted and then dropped, as any frame crossing the link is).
 */
class ScriptedAgent {
  private constructor(private readonly ws: WebSocket) {}

  static async connect(port: number, shipId: string, key: string): Promise<ScriptedAgent> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.agentLink}`, {
      headers: { [AGENT_HEADERS.shipId]: shipId, [AGENT_HEADERS.authorization]: `Ship ${key}`, [AGENT_HEADERS.protocol]: String(AGENT_LINK_VERSION) },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const agent = new ScriptedAgent(ws);
    const hello: AgentMessage = {
      type: 'hello',
      protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION },
      agentVersion: 'test',
      capabilities: ['live', 'playback'],
      link: { linkType: 'VSAT', quality: 80, duplex: 'BOTH' },
      cameras: [],
    };
    ws.send(JSON.stringify(hello));
    return agent;
  }

  /** Sends one binary frame; answers the bytes it costs on the link (frame overhead included). */
  async sendMedia(kind: number, payloadBytes: number): Promise<number> {
    const frame = Buffer.alloc(1 + 4 + payloadBytes, 7);
    frame[0] = kind;
    frame.writeUInt32BE(0xfffffff0, 1);
    await new Promise<void>((resolve, reject) => this.ws.send(frame, { binary: true }, (err) => (err ? reject(err) : resolve())));
    return frame.length + wsFrameOverhead(frame.length, true);
  }

  close(): void {
    this.ws.close();
  }
}

describe('link bytes statistics API', () => {
  let t: TestApp;
  let port: number;
  let agent: ScriptedAgent;
  const tokens = { demo: '', njzsz: '', tanker: '' };

  const get = (path: string, token?: string) => t.app.inject({ method: 'GET', url: path, headers: token === undefined ? {} : { [TOKEN_HEADER]: token } });
  const stats = async (orgId: string, token: string, ships?: string): Promise<LinkBytesStatistics> => {
    const res = await get(url(orgId, ships), token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: LinkBytesStatistics }>().data;
  };
  const ship = (s: LinkBytesStatistics, id: string): ShipLinkBytes => {
    const found = s.ships.find((x) => x.shipId === id);
    if (!found) throw new Error(`ship ${id} not in the answer`);
    return found;
  };
  const expectError = (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<{ code: number; data: unknown }>()).toMatchObject({ code: status, data: null });
  };

  beforeAll(async () => {
    t = await build();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    await addUser(t.app.database.db, { id: 'u-tanker', username: 'tanker', orgIds: ['blueocean-tankers'] });
    tokens.demo = (await logon(t.app, 'demo')).token;
    tokens.njzsz = (await logon(t.app, 'njzsz')).token;
    tokens.tanker = (await logon(t.app, 'tanker')).token;
    agent = await ScriptedAgent.connect(port, 'S1001', await t.app.agentKeys.issue('S1001'));
    await vi.waitFor(() => expect(t.app.agents.get('S1001')?.ready).toBe(true));
  });
  afterAll(async () => {
    agent?.close();
    await t?.close();
  });

  it('checks the sign-in and the organisation', async () => {
    expectError(await get(url('blueocean')), 401);
    const other = await get(url('blueocean'), tokens.njzsz);
    expectError(other, 403);
    expect(other.json<{ message: string }>().message).toBe(MESSAGES.forbidden);
    expectError(await get(url('no-such-org'), tokens.demo), 404);
    // A member of a sub-organisation may not look at its parent.
    expectError(await get(url('blueocean'), tokens.tanker), 403);
  });

  it("answers every ship of the organisation's visible subtree, and only those asked for with ships=", async () => {
    const all = await stats('blueocean', tokens.demo);
    expect(all.ships.map((s) => s.shipId)).toEqual(['S1001', 'S1002', 'S1003', 'S2001', 'S2002']);
    const tankers = await stats('blueocean-tankers', tokens.tanker);
    expect(tankers.ships.map((s) => s.shipId)).toEqual(['S2001', 'S2002']);
    // Ids outside the organisation are left out, not an error.
    const some = await stats('blueocean', tokens.demo, 'S1003,S1001,S3001, ,nope');
    expect(some.ships.map((s) => s.shipId)).toEqual(['S1001', 'S1003']);
    expect((await stats('njzsz', tokens.njzsz)).ships.map((s) => s.shipId)).toEqual(['S3001', 'S3002']);
  });

  it('says which ships are connected; a ship that never connected carried nothing and has a zero rate', async () => {
    const s = await stats('blueocean', tokens.demo);
    expect(ship(s, 'S1001').connected).toBe(true);
    // The hello and the welcome crossed S1001's link.
    expect(ship(s, 'S1001').up.control).toBeGreaterThan(0);
    expect(ship(s, 'S1001').down.control).toBeGreaterThan(0);
    const idle = ship(s, 'S1003');
    expect(idle).toMatchObject({ connected: false, shipName: '远航号' });
    expect(idle.up).toEqual({ control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 });
    expect(idle.upRate).toEqual({ control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 });
    expect(s.since).toBeLessThanOrEqual(s.sampledAt);
    expect(s.rateWindowSeconds).toBe(10);
  });

  it('counts every live and playback frame the ship sends, exactly, frame overhead included', async () => {
    const before = ship(await stats('blueocean', tokens.demo, 'S1001'), 'S1001');
    let live = 0;
    for (const size of [100, 1_000, 70_000]) live += await agent.sendMedia(BINARY_KIND.live, size);
    const playback = await agent.sendMedia(BINARY_KIND.playback, 5_000);
    await expect
      .poll(async () => ship(await stats('blueocean', tokens.demo, 'S1001'), 'S1001').up.playback - before.up.playback)
      .toBe(playback);
    const after = ship(await stats('blueocean', tokens.demo, 'S1001'), 'S1001');
    expect(after.up.live - before.up.live).toBe(live);
    expect(after.up.pictures).toBe(before.up.pictures);
    // The same figures as /metrics.
    const metrics = await scrapeMetrics(t.app);
    expect(metrics).toContain(`shipcctv_link_bytes_total{ship="S1001",direction="up",purpose="live"} ${after.up.live}`);
  });

  it('gives the recent rate once the server has read the link a while ago', async () => {
    // The counters are read every 2 s; a rate needs a reading at least 1 s old.
    await expect.poll(async () => ship(await stats('blueocean', tokens.demo, 'S1001'), 'S1001').upRate, { timeout: 8_000 }).not.toBeNull();
    await agent.sendMedia(BINARY_KIND.live, 40_000);
    await expect.poll(async () => ship(await stats('blueocean', tokens.demo, 'S1001'), 'S1001').upRate?.live ?? 0).toBeGreaterThan(0);
    const now = ship(await stats('blueocean', tokens.demo, 'S1001'), 'S1001');
    // Bytes over at least one second: never more than all the live bytes ever sent.
    expect(now.upRate?.live).toBeLessThanOrEqual(now.up.live);
    expect(now.upRate?.pictures).toBe(0);
  });
});
