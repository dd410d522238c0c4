import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, StatusWatcher, scrapeMetrics, signIn, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const SHIP = 'S1001';
/** STOMP status destinations name the ship by its name. */
const SHIP_NAME = '蓝海之星';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'VSAT', quality: 70, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };

/** The value of one sample line of the scrape, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics after a live view (prom-client, the product families)', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let token: string;
  let watcher: StatusWatcher;
  const clients: MediaClient[] = [];

  beforeAll(async () => {
    shore = await startShore({ live: { lingerMs: 1_000 } });
    const key = await shore.app.agentKeys.issue(SHIP);
    agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] }, link, { cameraKinds: [syntheticCameras()],
      minBackoffMs: 200,
      maxBackoffMs: 500,
    });
    agent.start();
    token = await signIn(shore.app);
    watcher = await StatusWatcher.connect(shore.port, token);
    watcher.subscribe(`/shipStatus/${SHIP_NAME}`);
    await watcher.waitFor<{ status: string }>(`/shipStatus/${SHIP_NAME}`, (m) => m.status === 'VSAT');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await watcher?.client.deactivate();
    await agent?.stop();
    await shore?.close();
  });

  it('shows the connected agent by link, one uplink with its viewers, STOMP, the uplink queue, errors by code and the process figures', async () => {
    const viewers = await Promise.all([MediaClient.open(shore.port, token), MediaClient.open(shore.port, token)]);
    clients.push(...viewers);
    for (const v of viewers) v.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await Promise.all(viewers.map((v) => v.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined && x.chunks.length > 10, 20_000, 'playing')));
    const refused = await MediaClient.open(shore.port, token);
    clients.push(refused);
    refused.send({ type: 'play', mode: 'live', cameraId: 'nope' });
    await refused.until((x) => x.event('error') !== undefined, 10_000, 'error');
    // The agent reports its uplink queue every second while a stream runs.
    await expect.poll(async () => sample(await scrapeMetrics(shore.app), `shipcctv_uplink_queue_ms{ship="${SHIP}"}`), { timeout: 5_000 }).toBeGreaterThanOrEqual(0);

    const text = await scrapeMetrics(shore.app);
    expect(sample(text, 'shipcctv_agents_connected{link="VSAT"}')).toBe(1);
    // One uplink for the camera whatever the number of viewers.
    expect(sample(text, 'shipcctv_live_uplink_streams')).toBe(1);
    expect(sample(text, 'shipcctv_live_viewers')).toBe(2);
    expect(sample(text, 'shipcctv_ship_playbacks')).toBe(0);
    expect(sample(text, 'shipcctv_stomp_connections')).toBe(1);
    expect(sample(text, 'shipcctv_stomp_subscriptions')).toBe(1);
    // An unknown camera is refused as one of another organisation (the answer tells no ids apart).
    expect(sample(text, 'shipcctv_media_socket_errors_total{code="forbidden"}')).toBe(1);
    expect(sample(text, 'shipcctv_definition_switches_total{direction="degrade"}')).toBe(0);
    expect(sample(text, 'shipcctv_recorder_segments_total{result="written"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'shipcctv_recorder_segments_total{result="failed"}')).toBe(0);
    expect(sample(text, 'shipcctv_signin_failures_total{reason="wrong_credentials"}')).toBe(0);
    expect(sample(text, `shipcctv_link_bytes_total{ship="${SHIP}",direction="up",purpose="live"}`)).toBeGreaterThan(10_000);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);

    // The viewers leave: after the linger the ship is told to stop and the gauges follow.
    await Promise.all(viewers.map((v) => v.close()));
    await expect.poll(async () => sample(await scrapeMetrics(shore.app), 'shipcctv_live_uplink_streams'), { timeout: 5_000 }).toBe(0);
    expect(sample(await scrapeMetrics(shore.app), 'shipcctv_live_viewers')).toBe(0);
  });
});
