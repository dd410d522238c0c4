import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport, MediaServerMessage } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import type { Database } from '@ship-cctv/server/db';
import { freshDatabase } from '../../../../apps/server/test/helpers/database.ts';
import { MediaClient } from '../../../../apps/server/test/helpers/media-client.ts';
import { type RtspCamera, startRtspCamera } from '../../../../apps/agent/test/helpers/rtsp-camera.ts';
import { PRODUCT_PACE_LIVENESS, type Shore, signIn, startShore } from '../helpers/shore.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
/** S1001's standard definition (seed.ts): 640×360 at 10 fps, 400 kbit/s — the camera's own size and rate. */
const STANDARD = 6;
const report: LinkReport = { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
// How the shore checks the agent's link: a loaded machine once went past the helper's 1 s silence
// limit mid-test, and the link's drop and redial restarted the H.265 viewer's stream (a second
// codec event) where the test counts one.
const LIVENESS = PRODUCT_PACE_LIVENESS;

/** What ffprobe reads in the bytes a viewer got: codec, size and pictures decoded. */
function probe(dir: string, name: string, chunks: Buffer[]): { codec: string; width: number; height: number; frames: number } {
  const file = join(dir, `${name}.mp4`);
  writeFileSync(file, Buffer.concat(chunks));
  const out = execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height,nb_read_frames', '-of', 'csv=p=0', file]).toString().trim();
  const [codec, width, height, frames] = out.split(',');
  return { codec: codec ?? '', width: Number(width), height: Number(height), frames: Number(frames) };
}

type Codec = Extract<MediaServerMessage, { type: 'codec' }>;
const lastCodec = (c: MediaClient) => c.events.filter((e): e is Codec => e.type === 'codec').at(-1);

/**
 * An H.265 camera end to end: a real RTSP camera (x265), a real agent recording it, a real shore. A
 * viewer that decodes H.265 gets the camera's hvc1 that ffmpeg decodes; one that does not gets
 * H.264 transcoded on the ship; the ship holds one RTSP session for the camera throughout.
 */
describe('an H.265 camera, ship to viewers', () => {
  let database: Database;
  let shore: Shore;
  let agent: ShipAgent;
  let camera: RtspCamera;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'live-hevc-'));
    camera = await startRtspCamera({ port: 19513, codec: 'h265', width: 640, height: 360, fps: 10, gopSeconds: 1, bitrateKbps: 150 });
    // The test's own database: the shore restarts on it (and on its port) with the agent's key.
    database = await freshDatabase('pglite', { seeded: true });
    shore = await startShore({ database, liveness: LIVENESS, live: { lingerMs: 1_000 } });
    agent = new ShipAgent(
      { shoreUrl: shore.url, shipId: SHIP, key: await shore.app.agentKeys.issue(SHIP), cameras: [{ cameraId: CAMERA, source: camera.url, name: 'Bridge' }] },
      { current: () => report, onChange: () => () => undefined },
      { minBackoffMs: 200, maxBackoffMs: 500, recorder: { dataDir: dir, segments: { segmentSeconds: 2 } } },
    );
    agent.start();
    token = await signIn(shore.app);
    await new Promise<void>((resolve) => (agent.connected ? resolve() : agent.once('connected', () => resolve())));
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await shore?.close();
    await database?.close();
    await camera?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sends hvc1 that decodes to a viewer that lists it, H.264 to one that does not, from one RTSP session that the recorder shares', async () => {
    const hevcViewer = await MediaClient.open(shore.port, token);
    const h264Viewer = await MediaClient.open(shore.port, token);
    try {
      hevcViewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: STANDARD, decoders: ['avc1', 'hvc1'] });
      await hevcViewer.until((c) => lastCodec(c) !== undefined && c.chunks.length > 10, 30_000, 'H.265 pictures');
      expect(lastCodec(hevcViewer)).toMatchObject({ mime: expect.stringMatching(/^video\/mp4; codecs="hvc1\.1\.6\.L\d+/), cameraCodec: 'h265', transcoded: false, width: 640, height: 360 });
      expect(probe(dir, 'hevc', hevcViewer.chunks)).toMatchObject({ codec: 'hevc', width: 640, height: 360, frames: hevcViewer.chunks.length - 1 });

      h264Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: STANDARD });
      await h264Viewer.until((c) => lastCodec(c) !== undefined && c.chunks.length > 10, 30_000, 'H.264 pictures');
      expect(lastCodec(h264Viewer)).toMatchObject({ mime: expect.stringMatching(/^video\/mp4; codecs="avc1\./), cameraCodec: 'h265', transcoded: true });
      expect(probe(dir, 'h264', h264Viewer.chunks)).toMatchObject({ codec: 'h264', width: 640, height: 360 });
      // The first viewer keeps the camera's own H.265: a stream each way while both kinds watch.
      expect(hevcViewer.events.filter((e) => e.type === 'codec')).toHaveLength(1);
      expect(agent.streams.activeStreamIds).toHaveLength(2);

      // The recorder records from the same session: one RTSP session at the camera for all of it.
      expect(agent.recorder.spans(CAMERA, 0, Date.now())?.length ?? 0).toBeGreaterThan(0);
      expect(camera.openSessions).toBe(1);
      expect(camera.sessionsOpened).toBe(1);
    } finally {
      await hevcViewer.close();
      await h264Viewer.close();
    }
  }, 90_000);

  it('after a shore restart, the hello of the ship says again that the camera sends H.265: viewers that decode it and viewers that do not, coming at once, each get theirs', async () => {
    // What shore learnt from the streams above is gone with it; the agent's hello says the camera's codec.
    const { port } = shore;
    await shore.close();
    shore = await startShore({ database, liveness: LIVENESS, live: { lingerMs: 1_000 } }, port);
    await expect.poll(() => shore.app.live.reportedCameraCodec(SHIP, CAMERA), { timeout: 20_000 }).toBe('h265');
    const hevcViewer = await MediaClient.open(shore.port, token);
    const h264Viewer = await MediaClient.open(shore.port, token);
    try {
      // Both kinds of viewer at once, before a stream of the camera could say its codec to this shore.
      hevcViewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: STANDARD, decoders: ['avc1', 'hvc1'] });
      h264Viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA, templateId: STANDARD });
      await hevcViewer.until((c) => lastCodec(c) !== undefined && c.chunks.length > 5, 30_000, 'H.265 pictures');
      await h264Viewer.until((c) => lastCodec(c) !== undefined && c.chunks.length > 5, 30_000, 'H.264 pictures');
      expect(lastCodec(hevcViewer)).toMatchObject({ cameraCodec: 'h265', transcoded: false });
      expect(lastCodec(h264Viewer)).toMatchObject({ cameraCodec: 'h265', transcoded: true });
      // Its stream was not restarted in H.264 for the second viewer: one codec event, a stream each way.
      expect(hevcViewer.events.filter((e) => e.type === 'codec')).toHaveLength(1);
      expect(agent.streams.activeStreamIds).toHaveLength(2);
    } finally {
      await hevcViewer.close();
      await h264Viewer.close();
    }
  }, 90_000);
});
