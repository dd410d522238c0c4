import { DEFAULT_CAMERA_EVENT_SETTINGS, EVENT_PICTURE_MAX_BYTES, type ShipEvent } from '@ship-cctv/protocol';
import { MemoryEventSink, startEventAnalysis } from '@ship-cctv/agent';
import { describe, expect, it } from 'vitest';
import { actorAt, actorOfSlot, actorSeed } from '../../src/camera/synthetic-actors.ts';
import { SyntheticCamera } from '../../src/camera/synthetic-camera.ts';

/** A camera name whose walker is in the picture from about now for the next `forMs`. */
function nameWithWalkerSoon(now: number, forMs: number): string {
  for (let i = 0; i < 5000; i++) {
    const name = `Deck ${i}`;
    const a = actorOfSlot(now + 1000, actorSeed(name));
    if (a.kind === 'walker' && a.from <= now + 1000 && a.from >= now - 2000 && a.to >= now + forMs) return name;
  }
  throw new Error('no camera name with a walker now');
}

// The demo's path on the ship: the synthetic camera's analysis frames, the real detector, an event.
describe('events from the synthetic camera', () => {
  it('makes a person event with a picture within seconds of a walker coming into the picture', async () => {
    const now = Date.now();
    const name = nameWithWalkerSoon(now, 9000);
    const camera = new SyntheticCamera({ cameraId: 'S1001-C09-1', source: 'synthetic', name }, { dataDir: undefined, sessions: undefined, now: Date.now }, { actors: true });
    const sink = new MemoryEventSink();
    const analysis = startEventAnalysis({ cameras: [camera], sink, settings: () => DEFAULT_CAMERA_EVENT_SETTINGS, log: () => undefined });
    try {
      await sink.waitFor(1, 25_000);
      const { event, jpeg } = sink.events[0] as { event: ShipEvent; jpeg: Buffer };
      expect(event.classes[0]?.class).toBe('person');
      expect(event.classes[0]?.score).toBeGreaterThanOrEqual(0.5);
      const walk = actorOfSlot(now + 1000, actorSeed(name));
      // Seen while the walker walked, and the picture shows the walker.
      expect(event.start).toBeGreaterThanOrEqual(walk.from - 1000);
      expect(event.start).toBeLessThanOrEqual(walk.to);
      expect(actorAt(event.picture.time, actorSeed(name))?.kind).toBe('walker');
      expect(jpeg.length).toBeLessThanOrEqual(EVENT_PICTURE_MAX_BYTES);
      expect(analysis.status()).toEqual([{ cameraId: 'S1001-C09-1', state: 'running' }]);
    } finally {
      await analysis.stop();
    }
  }, 40_000);
});
