import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport } from '@ship-cctv/protocol';
import { shipConfigs } from '@ship-cctv/server/schema';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, scrapeMetrics, signIn, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };

function soundBytes(metrics: string, ship: string): number {
  const m = new RegExp(`^shipcctv_live_audio_bytes_total\\{ship="${ship}"\\} (\\d+)$`, 'm').exec(metrics);
  return m ? Number(m[1]) : 0;
}

/**
 * The ship's `audio` flag decides (spec §3): S1001 has it on in the demo fleet, so its synthetic
 * camera's live stream carries sound to the viewer and both ends count the sound bytes; with the
 * flag off the next stream has no sound track and not one more sound byte crosses the link.
 */
describe('live sound from ship to viewer, as the ship config says', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let token: string;
  const clients: MediaClient[] = [];

  beforeAll(async () => {
    shore = await startShore({ live: { lingerMs: 300 } });
    const key = await shore.app.agentKeys.issue(SHIP);
    agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] }, link, { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 500 });
    agent.start();
    token = await signIn(shore.app);
    await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await agent?.stop();
    await shore?.close();
  });

  const watch = async () => {
    const c = await MediaClient.open(shore.port, token);
    clients.push(c);
    c.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await c.until((x) => x.event('codec') !== undefined && x.chunks.length > 20, 20_000, 'frames');
    return c;
  };

  it('audio on: both codecs, sound bytes counted by the agent and by shore', async () => {
    const c = await watch();
    expect(c.event('codec')?.mime).toMatch(/codecs="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/);
    await new Promise((r) => setTimeout(r, 2_000));
    const onShore = soundBytes(await scrapeMetrics(shore.app), SHIP);
    // ~2.8 kB/s at 20 kbit/s (AAC frames only); shore has all the agent sent but what is in flight.
    expect(onShore).toBeGreaterThan(3_000);
    expect(onShore).toBeLessThanOrEqual(agent.streams.audioBytesSent);
    expect(agent.streams.audioBytesSent - onShore).toBeLessThan(2_000);
    await c.close();
    await expect.poll(() => agent.streams.activeStreamIds.length, { timeout: 5_000 }).toBe(0);
  });

  it('audio off: no sound track, and no sound byte crosses the link', async () => {
    await shore.app.database.db.update(shipConfigs).set({ audio: false }).where(eq(shipConfigs.shipId, SHIP));
    const agentBefore = agent.streams.audioBytesSent;
    const shoreBefore = soundBytes(await scrapeMetrics(shore.app), SHIP);
    const c = await watch();
    expect(c.event('codec')?.mime).toMatch(/codecs="avc1\.[0-9a-f]{6}"$/);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(agent.streams.stats().map((s) => s.audio)).toEqual([false]);
    expect(agent.streams.audioBytesSent).toBe(agentBefore);
    expect(soundBytes(await scrapeMetrics(shore.app), SHIP)).toBe(shoreBefore);
    await c.close();
  });
});
