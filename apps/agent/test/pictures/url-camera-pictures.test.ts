/**
 * Pictures of a URL camera (a real RTSP camera, scripts/rtsp-camera.py): now, from the camera's
 * running session (no second connection to the camera), and from the ship recorder at a past
 * time; a time the recorder does not hold is refused as such.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentMessage } from '@ship-cctv/protocol';
import { CameraSources } from '../../src/camera-sources.ts';
import type { CameraConfig } from '../../src/cameras.ts';
import { CameraSessions } from '../../src/media/camera-session.ts';
import { jpegSize } from '../../src/pictures/capture.ts';
import { ShipPictures } from '../../src/pictures/ship-pictures.ts';
import { ShipRecorder } from '../../src/recorder/ship-recorder.ts';
import { type RtspCamera, startRtspCamera } from '../helpers/rtsp-camera.ts';
import { tempDir } from '../media/helpers.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const CAMERA_ID = 'S1-C01-1';

describe('pictures of a URL camera', () => {
  const tmp = tempDir('url-camera-pictures-');
  let camera: RtspCamera;
  const sessions = new CameraSessions({ stallMs: 4_000, minRetryMs: 300, maxRetryMs: 1_000 });
  let recorder: ShipRecorder;
  let pictures: ShipPictures;
  const sent: AgentMessage[] = [];
  let hold: () => void = () => undefined;
  const take = (pictureId: string, at?: number) =>
    pictures.take({ type: 'pictures.take', streamId: 9, pictureId, cameraId: CAMERA_ID, width: 640, height: 360, ...(at !== undefined ? { at } : {}), origin: 'manual' });

  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18561, width: 320, height: 240, fps: 10, gopSeconds: 1 });
    const cameras: CameraConfig[] = [{ cameraId: CAMERA_ID, source: camera.url }];
    const sources = new CameraSources(cameras, { sessions, dataDir: tmp.dir });
    recorder = new ShipRecorder(sources, { dataDir: tmp.dir, segments: { segmentSeconds: 2, minRetryMs: 300 } });
    pictures = new ShipPictures(sources, { dataDir: tmp.dir });
    pictures.attach({ sendJson: (m) => sent.push(m), sendBinary: () => undefined });
    hold = sessions.get(camera.url).subscribe(() => undefined);
    recorder.start();
  });
  afterAll(async () => {
    pictures?.close();
    await recorder?.stop();
    hold();
    await sessions.stopAll();
    await camera?.stop();
    tmp.remove();
  });

  it('takes the picture of this instant from the running session, without a second connection to the camera', async () => {
    await expect.poll(() => sessions.health(camera.url)?.online ?? false, { timeout: 15_000 }).toBe(true);
    const before = Date.now();
    const picture = await take('url-now-000001');
    expect(picture).toMatchObject({ cameraId: CAMERA_ID, width: 320, height: 240, origin: 'manual' });
    expect(picture?.time).toBeGreaterThanOrEqual(before);
    expect(jpegSize(pictures.store.read('url-now-000001') ?? new Uint8Array())).toEqual({ width: 320, height: 240 });
    expect(camera.sessionsOpened).toBe(1);
    expect(sent.at(-1)).toMatchObject({ type: 'pictures.taken', streamId: 9, picture: { pictureId: 'url-now-000001', bytes: picture?.bytes } });
    expect(pictures.outbox.all).toContain('url-now-000001');
  });

  it('takes a picture from the recording at a past time, and refuses a time the recorder does not hold', async () => {
    const started = Date.now();
    // Two closed segments are in the index.
    await expect.poll(() => recorder.spans(CAMERA_ID, 0, Date.now())?.reduce((n, s) => n + (s.end - s.start), 0) ?? 0, { timeout: 20_000 }).toBeGreaterThan(3_000);
    const span = recorder.spans(CAMERA_ID, 0, Date.now())?.[0];
    if (!span) throw new Error('nothing recorded');
    const at = span.start + 1_000;
    const picture = await take('url-past-00001', at);
    expect(picture).toMatchObject({ time: at, width: 320, height: 240 });
    expect(jpegSize(pictures.store.read('url-past-00001') ?? new Uint8Array())).toEqual({ width: 320, height: 240 });

    expect(await take('url-never-0001', started - 3_600_000)).toBeUndefined();
    expect(sent.at(-1)).toMatchObject({ type: 'pictures.failed', streamId: 9, code: 'noRecording' });
    expect(pictures.store.get('url-never-0001')).toBeUndefined();
  });
});
