import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvelopeOf, type LinkReport, type RecordQueryPage, TOKEN_HEADER } from '@ship-cctv/protocol';
import { Fmp4Splitter } from '@ship-cctv/media';
import type { ShipAgent } from '@ship-cctv/agent';
import { type TestApp, build, logon } from '../../../../apps/server/test/helpers/build.ts';
import { MediaClient } from '../../../../apps/server/test/playback/helpers.ts';
import { CAMERA, listenOnLoopback, shipReady, syntheticShip } from './real-ship.ts';

const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };

/**
 * A live start end to end with the real agent (real ffmpeg, the ship's sound on, as the demo's
 * S1001): the viewer gets one codec message and one init segment, and the shore recorder, which
 * records this camera, makes one recording of it, not a short one beside the real one.
 */
describe('one live start with the real ship agent', () => {
  let t: TestApp;
  let port: number;
  let agent: ShipAgent;
  let token: string;
  let dir: string;

  const recordings = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/20', headers: { [TOKEN_HEADER]: token }, payload: { cameraId: CAMERA } });
    return res.json<EnvelopeOf<RecordQueryPage>>().data;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'one-init-'));
    t = await build({ recorder: { settings: { dir: join(dir, 'recordings'), segmentSeconds: 2 } } });
    port = await listenOnLoopback(t);
    agent = await syntheticShip(t, `ws://127.0.0.1:${port}`, report, { minBackoffMs: 200, maxBackoffMs: 500 });
    agent.start();
    token = (await logon(t.app, 'demo')).token;
    await shipReady(t);
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends one codec message and one init segment, and the shore recorder keeps one recording', async () => {
    const c = await MediaClient.open(port, token);
    try {
      c.send({ type: 'play', mode: 'live', cameraId: CAMERA });
      // Three seconds of pictures: well past the first sound frames, where a second init came.
      await c.until((x) => x.chunks.length > 30, 30_000, '30 fragments');
      const codecs = c.events.filter((e) => e.type === 'codec');
      expect(codecs).toHaveLength(1);
      expect(codecs[0]).toMatchObject({ mime: expect.stringContaining('mp4a.40.2') as string });
      const units = new Fmp4Splitter().push(Buffer.concat(c.chunks));
      expect(units.filter((u) => u.kind === 'init')).toHaveLength(1);
      expect(units.filter((u) => u.kind === 'fragment').length).toBeGreaterThanOrEqual(30);
      // The recording's first 2 s segment is indexed (a recording is listed once it has one).
      await expect.poll(async () => (await recordings()).records.some((r) => r.end - r.start >= 1_900), { timeout: 20_000 }).toBe(true);
      await t.app.recorder.settled();
      const page = await recordings();
      expect(page.records.map((r) => r.end - r.start)).toHaveLength(1);
    } finally {
      await c.close();
    }
  }, 60_000);
});
