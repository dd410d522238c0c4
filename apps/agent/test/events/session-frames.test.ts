import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CameraSession } from '../../src/media/camera-session.ts';
import type { AnalysisFrame } from '../../src/events/analyser/frames.ts';
import { sessionFrames } from '../../src/events/analyser/frames.ts';
import { type RtspCamera, startRtspCamera } from '../helpers/rtsp-camera.ts';

// The analysis reads a real camera's running session: frames at the rate and size asked, and no
// second RTSP session at the camera.
describe('analysis frames from a camera session', () => {
  let camera: RtspCamera;
  beforeAll(async () => {
    camera = await startRtspCamera({ port: 18556, width: 640, height: 360, fps: 10 });
  }, 30_000);
  afterAll(async () => {
    await camera?.stop();
  });

  it('decodes the session at 3 frames a second, 320 wide, over the one RTSP session the agent holds', async () => {
    const session = new CameraSession(camera.url);
    const hold = session.subscribe(() => undefined);
    const frames: AnalysisFrame[] = [];
    const ends: string[] = [];
    const feed = sessionFrames(session, { fps: 3, maxWidth: 320, onFrame: (f) => frames.push(f), onEnd: (r) => ends.push(r) });
    try {
      await expect.poll(() => frames.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
      const first = frames[0] as AnalysisFrame;
      expect({ width: first.width, height: first.height, bytes: first.rgb.length }).toEqual({ width: 320, height: 180, bytes: 320 * 180 * 3 });
      // The test picture is not blank.
      expect(new Set(first.rgb).size).toBeGreaterThan(4);
      // A steady rate once running (the session's GOP at the start comes at once).
      const later = frames.slice(4);
      const span = ((later.at(-1) as AnalysisFrame).time - (later[0] as AnalysisFrame).time) / 1000;
      expect((later.length - 1) / span).toBeGreaterThan(2);
      expect((later.length - 1) / span).toBeLessThan(4.5);
      expect(camera.sessionsOpened).toBe(1);
      expect(ends).toEqual([]);
    } finally {
      feed.stop();
      hold();
      await session.stop();
    }
  }, 40_000);
});
