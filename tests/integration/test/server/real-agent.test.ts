import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LinkReport, TOKEN_HEADER, type VodQueryResult } from '@ship-cctv/protocol';
// The real ship agent (its synthetic camera's recorder and playback), dialling this server.
import type { ShipAgent } from '@ship-cctv/agent';
import { type TestApp, build, logon, scrapeMetrics } from '../../../../apps/server/test/helpers/build.ts';
import { MediaClient, linkBytes } from '../../../../apps/server/test/playback/helpers.ts';
import { CAMERA, SHIP, listenOnLoopback, shipReady, syntheticShip } from './real-ship.ts';

const MINUTE = 60_000;
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };

/** Ship-end playback end to end: the real server, the real agent, real ffmpeg. */
describe('ship-end playback with the real ship agent', () => {
  let t: TestApp;
  let port: number;
  let agent: ShipAgent;
  let token: string;
  let dir: string;
  /** A recorded stretch of the last hours, found by asking the ship. */
  let recorded: { start: number; end: number };
  const clients: MediaClient[] = [];
  const open = async () => {
    const c = await MediaClient.open(port, token);
    clients.push(c);
    return c;
  };
  const metrics = async () => await scrapeMetrics(t.app);
  const vod = async (start: number, end: number) => {
    const res = await t.app.inject({ method: 'GET', url: `/cctvv3-server/v3/vod/query/${SHIP}/${CAMERA}/${start}/${end}`, headers: { [TOKEN_HEADER]: token } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: VodQueryResult }>().data;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ship-playback-real-'));
    t = await build();
    port = await listenOnLoopback(t);
    agent = await syntheticShip(t, `ws://127.0.0.1:${port}`, report, { minBackoffMs: 200, maxBackoffMs: 500 });
    agent.start();
    token = (await logon(t.app, 'demo')).token;
    await shipReady(t);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await agent?.stop();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the ship which times it recorded, once for a past range', async () => {
    const now = Date.now();
    const first = await vod(now - 6 * 60 * MINUTE, now - 10 * MINUTE);
    expect(first.cached).toBe(false);
    expect(first.spans.length).toBeGreaterThan(0);
    const longest = [...first.spans].sort((a, b) => b.end - b.start - (a.end - a.start))[0];
    expect(longest && longest.end - longest.start).toBeGreaterThan(60 * MINUTE);
    recorded = longest as { start: number; end: number };
    const again = await vod(now - 6 * 60 * MINUTE, now - 10 * MINUTE);
    expect(again).toEqual({ ...first, cached: true });
  });

  it("plays the ship's recording at 16×: H.264 at the default definition, positions in recorded time, bytes counted as playback", async () => {
    const before = await metrics();
    const c = await open();
    const start = recorded.start + 5 * MINUTE;
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end: start + 30 * MINUTE, speed: 16, timeZone: 'China Standard Time' });
    await c.until((x) => x.event('status', (e) => e.state === 'playing') !== undefined && x.chunks.length > 15, 30_000, 'playing');
    await c.until((x) => x.events.filter((e) => e.type === 'position').length >= 3, 10_000, 'positions');
    expect(c.event('codec')).toMatchObject({ width: 640, height: 360, templateId: 6 });
    expect(c.order[c.order.indexOf('codec') + 1]).toBe('binary:ftyp');
    const positions = c.events.flatMap((e) => (e.type === 'position' ? [e.time] : []));
    // Recorded time runs about 16 times faster than the wall clock, inside the range.
    expect(positions[0]).toBeGreaterThanOrEqual(start);
    expect((positions.at(-1) ?? 0) - (positions[0] ?? 0)).toBeGreaterThan(16 * 1_000);
    c.send({ type: 'stop' });
    await c.until((x) => x.event('status', (e) => e.state === 'ended') !== undefined, 5_000, 'stopped');

    const file = join(dir, 'playback.mp4');
    writeFileSync(file, Buffer.concat(c.chunks));
    const probe = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'csv=p=0', file]).toString().trim();
    const [codec, width, height, frames] = probe.split(',');
    expect([codec, width, height]).toEqual(['h264', '640', '360']);
    expect(Number(frames)).toBeGreaterThan(5);

    const up = linkBytes(await metrics(), SHIP, 'up', 'playback') - linkBytes(before, SHIP, 'up', 'playback');
    expect(up).toBeGreaterThanOrEqual(c.bytes);
    await expect.poll(() => agent.playback.activeStreamIds.length, { timeout: 5_000 }).toBe(0);
  });

  it('pause stops the bytes from the ship; seek brings a new init segment from the new time', async () => {
    const c = await open();
    const start = recorded.start + 10 * MINUTE;
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end: start + 30 * MINUTE, speed: 4 });
    await c.until((x) => x.chunks.length > 10, 30_000, 'fragments');
    c.send({ type: 'pause' });
    await c.until((x) => x.event('position', (e) => e.paused) !== undefined, 5_000, 'paused');
    await new Promise((r) => setTimeout(r, 500));
    const upPaused = linkBytes(await metrics(), SHIP, 'up', 'playback');
    const bytes = c.bytes;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(c.bytes).toBe(bytes);
    expect(linkBytes(await metrics(), SHIP, 'up', 'playback')).toBe(upPaused);

    c.order.length = 0;
    c.events.length = 0;
    const to = start + 20 * MINUTE;
    c.send({ type: 'seek', time: to });
    c.send({ type: 'resume' });
    await c.until((x) => x.order.includes('binary:ftyp') && x.events.some((e) => e.type === 'position' && e.time >= to && !e.paused), 30_000, 'new init and position');
    expect(c.order.indexOf('codec')).toBeLessThan(c.order.indexOf('binary:ftyp'));
    const times = c.events.flatMap((e) => (e.type === 'position' && !e.paused ? [e.time] : []));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(to);
    await c.close();
    await expect.poll(() => agent.playback.activeStreamIds.length, { timeout: 5_000 }).toBe(0);
  });

  it('answers noRecording for a range the ship does not hold, and ends a range that is done', async () => {
    const c = await open();
    // Before the ship's oldest recording (its synthetic camera keeps 7 days).
    const eightDaysAgo = Date.now() - 8 * 24 * 60 * MINUTE;
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start: eightDaysAgo, end: eightDaysAgo + 60 * MINUTE, speed: 16 });
    expect((await c.nextError(20_000)).code).toBe('noRecording');

    const start = recorded.start + 30 * MINUTE;
    c.send({ type: 'play', mode: 'shipPlayback', cameraId: CAMERA, start, end: start + 40_000, speed: 16 });
    await c.until((x) => x.event('status', (e) => e.state === 'ended') !== undefined, 30_000, 'ended');
    expect(c.chunks.length).toBeGreaterThan(1);
  });
});
