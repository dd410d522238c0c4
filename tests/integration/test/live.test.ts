import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, scrapeMetrics, signIn, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };

function liveUpBytes(metrics: string, ship: string): number {
  const m = new RegExp(`^shipcctv_link_bytes_total\\{ship="${ship}",direction="up",purpose="live"\\} (\\d+)$`, 'm').exec(metrics);
  return m ? Number(m[1]) : 0;
}

describe('live video from a ship camera to viewers', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let token: string;
  let dir: string;
  const clients: MediaClient[] = [];
  const open = async () => {
    const c = await MediaClient.open(shore.port, token);
    clients.push(c);
    return c;
  };
  const metrics = async () => await scrapeMetrics(shore.app);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'live-test-'));
    shore = await startShore({ live: { lingerMs: 1_000 } });
    const key = await shore.app.agentKeys.issue(SHIP);
    agent = new ShipAgent(
      {
        shoreUrl: shore.url,
        shipId: SHIP,
        key,
        cameras: [
          { cameraId: CAMERA, source: 'synthetic', name: 'Bridge' },
          { cameraId: 'S1001-C02-1', source: 'synthetic', name: 'Engine Room' },
        ],
      },
      link,
      { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 500 },
    );
    agent.start();
    token = await signIn(shore.app);
    await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await agent?.stop();
    await shore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("plays H.264 fMP4 at the ship's default definition, starting with the codec and an init segment", async () => {
    const c = await open();
    c.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await c.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined && x.chunks.length > 25, 20_000, 'playing with frames');
    expect(c.event('status', (e) => e.state === 'starting')?.waitSeconds).toBe(8);
    const codec = c.event('codec');
    expect(codec).toMatchObject({ width: 640, height: 360, templateId: 6 });
    // S1001 has `audio` on in the demo fleet: the synthetic camera's sound rides along (AAC-LC).
    expect(codec?.mime).toMatch(/^video\/mp4; codecs="avc1\.42[0-9a-f]{4},mp4a\.40\.2"$/);
    // The codec event comes before the first byte; the first binary message is the init segment.
    expect(c.chunks[0]?.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const file = join(dir, 'first.mp4');
    writeFileSync(file, Buffer.concat(c.chunks));
    const probe = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'csv=p=0', file]).toString().trim();
    const [codecName, width, height, frames] = probe.split(',');
    expect([codecName, width, height]).toEqual(['h264', '640', '360']);
    expect(Number(frames)).toBeGreaterThan(20);
    await c.close();
  });

  it('shares one uplink among eight viewers, and stops it after the linger once they leave', async () => {
    const viewers = await Promise.all(Array.from({ length: 8 }, () => open()));
    for (const v of viewers) v.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: 5 });
    await Promise.all(viewers.map((v) => v.until((x) => x.chunks.length > 10, 20_000, 'frames')));
    expect(agent.streams.activeStreamIds).toHaveLength(1);
    const streams = shore.app.live.activeStreams();
    expect(streams).toEqual([expect.objectContaining({ viewers: 8, definition: 5, state: 'playing' })]);
    // Every viewer joined mid-stream yet started with the init segment.
    for (const v of viewers) expect(v.chunks[0]?.subarray(4, 8).toString('latin1')).toBe('ftyp');

    // Over two seconds the ship sends one stream's bytes, while the viewers together receive eight times as much.
    const up0 = liveUpBytes(await metrics(), SHIP);
    const down0 = viewers.reduce((a, v) => a + v.bytes, 0);
    await new Promise((r) => setTimeout(r, 2_000));
    const up = liveUpBytes(await metrics(), SHIP) - up0;
    const down = viewers.reduce((a, v) => a + v.bytes, 0) - down0;
    expect(up).toBeGreaterThan(0);
    expect(down / up).toBeGreaterThan(6);

    await Promise.all(viewers.map((v) => v.close()));
    // Linger is 1 s here (10 s in production): then the ship is told to stop and its counter stands still.
    await expect.poll(() => agent.streams.activeStreamIds.length, { timeout: 5_000 }).toBe(0);
    const a = liveUpBytes(await metrics(), SHIP);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(liveUpBytes(await metrics(), SHIP)).toBe(a);
  });

  it('refuses what cannot be played, with the reason', async () => {
    const c = await open();
    c.send({ type: 'play', mode: 'live', cameraId: 'S2002-C01-1' });
    await c.until((x) => x.event('error') !== undefined, 10_000, 'error');
    expect(c.event('error')).toMatchObject({ code: 'noDefaultTemplate' });
    expect(c.event('error')?.message).toContain('无默认清晰度模板');
    c.events.length = 0;
    // An unknown camera is answered as another organisation's is: the answer tells no ids apart.
    c.send({ type: 'play', mode: 'live', cameraId: 'nope' });
    await c.until((x) => x.event('error') !== undefined, 10_000, 'error');
    expect(c.event('error')).toMatchObject({ code: 'forbidden', message: 'You do not have permission to do this' });
    c.events.length = 0;
    c.send({ type: 'dance' });
    await c.until((x) => x.event('error') !== undefined, 10_000, 'error');
    expect(c.event('error')?.code).toBe('badRequest');
    expect(agent.streams.activeStreamIds).toHaveLength(0);

    const anonymous = await MediaClient.open(shore.port, undefined);
    clients.push(anonymous);
    await anonymous.until((x) => x.closed !== undefined, 5_000, 'close');
    expect(anonymous.event('error')?.code).toBe('unauthorized');
    expect(anonymous.closed?.code).toBe(4401);
  });

  it("refuses a viewer outside the camera's organisation", async () => {
    const njzsz = await signIn(shore.app, 'njzsz');
    const c = await MediaClient.open(shore.port, njzsz);
    clients.push(c);
    c.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await c.until((x) => x.event('error') !== undefined, 10_000, 'error');
    expect(c.event('error')).toMatchObject({ code: 'forbidden', message: 'You do not have permission to do this' });
  });

  it('tells viewers the ship went offline and resumes by itself when it returns', async () => {
    const c = await open();
    c.send({ type: 'play', mode: 'live', cameraId: 'S1001-C02-1' });
    await c.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined, 20_000, 'playing');
    await agent.stop();
    await c.until((x) => x.event('status', (e) => e.state === 'offline') !== undefined, 10_000, 'offline');
    const before = c.chunks.length;
    c.events.length = 0;
    agent.start();
    await c.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined && x.chunks.length > before + 10, 20_000, 'playing again');
    // A fresh stream: a new codec event and a new init segment.
    expect(c.event('codec')).toBeDefined();
    expect(c.chunks.slice(before).some((b) => b.subarray(4, 8).toString('latin1') === 'ftyp')).toBe(true);
    await c.close();
  });
});
