import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@ship-cctv/server/db';
import { freshDatabase } from '../../../apps/server/test/helpers/database.ts';
import type { LinkReport, MediaListMessage, ShipStatusMessage } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { type Shore, StatusWatcher, signIn, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SHIP = { id: 'S1002', name: '蓝海明珠' };
const report: LinkReport = { linkType: 'FBB', quality: 55, duplex: 'BOTH' };

/**
 * Two shore instances share the database and Redis. The agent lands on instance A; an operator
 * subscribed on instance B sees its status, and B's REST answers it too.
 */
describe('status across two server instances through Redis', () => {
  let database: Database;
  let a: Shore;
  let b: Shore;
  let watcher: StatusWatcher;
  let token: string;
  const redisPrefix = `shipcctv-test-${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    database = await freshDatabase('pglite', { seeded: true });
    a = await startShore({ database, redisUrl: REDIS_URL, redisPrefix });
    b = await startShore({ database, redisUrl: REDIS_URL, redisPrefix });
    token = await signIn(b.app);
    watcher = await StatusWatcher.connect(b.port, token);
    watcher.subscribe(`/shipStatus/${SHIP.name}`);
    // S1002's cameras are landsea (xplus) sources: they publish under their cctvInstanceId.
    watcher.subscribe('/mediaList/XP-2002');
  });
  afterAll(async () => {
    await watcher?.close();
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('delivers a status reported on A to a subscriber on B, and B answers it over REST', async () => {
    const key = await a.app.agentKeys.issue(SHIP.id);
    const agent = new ShipAgent(
      { shoreUrl: a.url, shipId: SHIP.id, key, cameras: [{ cameraId: 'S1002-C02-1', source: 'synthetic' }] },
      { current: () => report, onChange: () => () => undefined },
      { cameraKinds: [syntheticCameras()] },
    );
    agent.start();
    try {
      const status = await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'FBB');
      expect(status.quality).toBe(55);
      await watcher.waitFor<MediaListMessage>('/mediaList/XP-2002', (m) => m.sourceId === 'S1002-C02-1' && m.status === 'ONLINE');
      expect(a.app.agents.get(SHIP.id)).toBeDefined();
      expect(b.app.agents.get(SHIP.id)).toBeUndefined();

      const res = await b.app.inject({ method: 'POST', url: '/api/v1/cctv-server/getShipStatus', headers: { 'cas-jwt': token }, payload: { shipIds: [SHIP.id] } });
      expect(res.json().data[0]).toMatchObject({ shipId: SHIP.id, status: 'FBB', online: true });
    } finally {
      watcher.clear();
      await agent.stop();
    }
    await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.status === 'OFFLINE', 5_000);
  });
});
