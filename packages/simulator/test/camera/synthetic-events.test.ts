import { DEFAULT_CAMERA_EVENT_SETTINGS, EVENT_PICTURE_MAX_BYTES, type ShipEvent } from '@ship-cctv/protocol';
import { MemoryEventSink, startEventAnalysis } from '@ship-cctv/agent';
import { describe, expect, it } from 'vitest';
import { ACTOR_SLOT_S, type ActorInSlot, actorAt, actorOfSlot, actorSeed } from '../../src/camera/synthetic-actors.ts';
import { SyntheticCamera } from '../../src/camera/synthetic-camera.ts';

/** Nobody walks in the picture of camera `name` from `from` to `to`. */
function nobodyWalks(name: string, from: number, to: number): boolean {
  for (let t = from; t <= to; t += 250) if (actorAt(t, actorSeed(name))?.kind === 'walker') return false;
  return true;
}

/**
 * The camera name (of many tried) whose next walker comes in soonest after `after` with nobody
 * walking before it from `since`, and that walker; undefined when every camera's walker is in the
 * picture at `since` (every even slot has one, entering within its first 8 s).
 */
function nameWithWalkerSoon(since: number, after: number): { name: string; walk: ActorInSlot } | undefined {
  let best: { name: string; walk: ActorInSlot } | undefined;
  for (let i = 0; i < 2000; i++) {
    const name = `Deck ${i}`;
    for (const at of [after, after + ACTOR_SLOT_S * 1000]) {
      const walk = actorOfSlot(at, actorSeed(name));
      if (walk.kind === 'walker' && walk.from >= after && (!best || walk.from < best.walk.from) && nobodyWalks(name, since, walk.from - 1)) best = { name, walk };
    }
  }
  return best;
}

/** A start at or after now when some camera has nobody walking until its next walker, that camera and walker. */
async function startBeforeAWalker(): Promise<{ started: number; name: string; walk: ActorInSlot }> {
  for (let since = Date.now(); since < Date.now() + 2 * ACTOR_SLOT_S * 1000; since += 1000) {
    const found = nameWithWalkerSoon(since, since + 1500);
    if (!found) continue;
    await new Promise((r) => setTimeout(r, Math.max(0, since - Date.now())));
    return { started: Date.now(), ...found };
  }
  throw new Error('no camera name with a walker soon in two slots');
}

// The demo's path on the ship: the synthetic camera's analysis frames, the real detector, an event.
describe('events from the synthetic camera', () => {
  it('makes a person event with a picture within seconds of a walker coming into the picture', async () => {
    const { started, name, walk } = await startBeforeAWalker();
    const camera = new SyntheticCamera({ cameraId: 'S1001-C09-1', source: 'synthetic', name }, { dataDir: undefined, sessions: undefined, now: Date.now }, { actors: true });
    const sink = new MemoryEventSink();
    const analysis = startEventAnalysis({ cameras: [camera], sink, settings: () => DEFAULT_CAMERA_EVENT_SETTINGS, log: () => undefined });
    try {
      await sink.waitFor(1, walk.from - Date.now() + 25_000);
      const { event, jpeg } = sink.events[0] as { event: ShipEvent; jpeg: Buffer };
      expect(event.classes[0]?.class).toBe('person');
      expect(event.classes[0]?.score).toBeGreaterThanOrEqual(0.5);
      // Seen while the walker walked, and the picture shows the walker. (The event may begin
      // before: the camera's square moved from the start, and no look before saw nobody.)
      expect(event.start).toBeGreaterThanOrEqual(started);
      expect(event.picture.time).toBeGreaterThanOrEqual(walk.from);
      expect(event.picture.time).toBeLessThanOrEqual(walk.to);
      expect(event.end).toBeLessThanOrEqual(walk.to + 1000);
      expect(actorAt(event.picture.time, actorSeed(name))?.kind).toBe('walker');
      expect(jpeg.length).toBeLessThanOrEqual(EVENT_PICTURE_MAX_BYTES);
      expect(analysis.status()).toEqual([{ cameraId: 'S1001-C09-1', state: 'running' }]);
    } finally {
      await analysis.stop();
    }
  }, 60_000);
});
