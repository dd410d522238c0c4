import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, signIn, startShore } from './helpers/shore.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
/** The demo's satellite tier of S1001's group in AV1 (seed.ts). */
const SATELLITE_AV1 = 12;
const report: LinkReport = { linkType: 'FBB', quality: 60, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };

/** What ffprobe reads in the bytes a viewer got: codec, size and pictures decoded. */
function probe(dir: string, name: string, chunks: Buffer[]): { codec: string; width: number; height: number; frames: number } {
  const file = join(dir, `${name}.mp4`);
  writeFileSync(file, Buffer.concat(chunks));
  const out = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'csv=p=0', file]).toString().trim();
  const [codec, width, height, frames] = out.split(',');
  return { codec: codec ?? '', width: Number(width), height: Number(height), frames: Number(frames) };
}

/**
 * The satellite tier end to end: a real agent (the synthetic camera, SVT-AV1 from the machine's
 * ffmpeg) and a real shore. A viewer that says it decodes AV1 gets `av01` that ffmpeg decodes; when
 * a viewer that does not joins the same definition, both get H.264 from the one uplink.
 */
describe('live AV1 at the satellite tier, ship to viewer', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'live-av1-'));
    shore = await startShore({ live: { lingerMs: 1_000 } });
    const key = await shore.app.agentKeys.issue(SHIP);
    agent = new ShipAgent({ shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] }, link, {
      cameraKinds: [syntheticCameras()],
      minBackoffMs: 200,
      maxBackoffMs: 500,
    });
    agent.start();
    token = await signIn(shore.app);
    await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  });
  afterAll(async () => {
    await agent?.stop();
    await shore?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams av01 that decodes to a viewer that decodes AV1, and H.264 to both once one that does not joins', async () => {
    const av1Viewer = await MediaClient.open(shore.port, token);
    const h264Viewer = await MediaClient.open(shore.port, token);
    try {
      av1Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1, decoders: ['avc1', 'av01'] });
      await av1Viewer.until((c) => c.chunks.length > 6, 30_000, 'AV1 pictures');
      expect(av1Viewer.event('codec')).toMatchObject({ width: 320, height: 180, frameRate: 3, templateId: SATELLITE_AV1 });
      // Picture only: the AV1 path carries no sound (S1001 has sound on; its H.264 streams carry it).
      expect(av1Viewer.event('codec')?.mime).toMatch(/^video\/mp4; codecs="av01\.0\.\d\dM\.08"$/);
      expect(probe(dir, 'av1', av1Viewer.chunks)).toMatchObject({ codec: 'av1', width: 320, height: 180, frames: av1Viewer.chunks.length - 1 });

      h264Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: SATELLITE_AV1 });
      await h264Viewer.until((c) => c.chunks.length > 6, 30_000, 'H.264 pictures');
      const mime = h264Viewer.event('codec')?.mime ?? '';
      expect(mime).toMatch(/^video\/mp4; codecs="avc1\.64/);
      expect(probe(dir, 'h264', h264Viewer.chunks)).toMatchObject({ codec: 'h264', width: 320, height: 180 });
      // The AV1 viewer moved to the same H.264 stream: one uplink of the camera on the ship.
      await av1Viewer.until((c) => c.events.some((e) => e.type === 'codec' && e.mime === mime), 15_000, 'the switch to H.264');
      expect(shore.app.live.activeStreams().filter((s) => s.key.startsWith(CAMERA))).toEqual([expect.objectContaining({ viewers: 2, definition: SATELLITE_AV1 })]);
      expect(agent.streams.activeStreamIds).toHaveLength(1);
    } finally {
      await av1Viewer.close();
      await h264Viewer.close();
    }
  }, 90_000);
});
