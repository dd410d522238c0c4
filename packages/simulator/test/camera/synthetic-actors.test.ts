import { type Detector, loadDetector } from '@ship-cctv/agent';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_SLOT_S, actorAt, actorOfSlot, actorSeed, walkerImagePath } from '../../src/camera/synthetic-actors.ts';
import { shootSynthetic } from '../../src/camera/synthetic-camera.ts';
import { syntheticCameraArgs } from '../../src/camera/synthetic-picture.ts';
import { fontsFor } from '../../src/camera/fonts.ts';
import { eventCamerasOf } from '../../src/fleet.ts';

const seed = actorSeed('Bridge');
const day = Date.UTC(2026, 10, 29);

/** The first moment from `from` on, in steps of 250 ms, when `test` holds. */
function firstWhen(from: number, test: (t: number) => boolean): number {
  for (let t = from; t < from + 3_600_000; t += 250) if (test(t)) return t;
  throw new Error('never');
}

describe('the synthetic camera\'s walkers and boats', () => {
  it('has one actor a slot, somebody walking by at least every two slots, and boats too', () => {
    let walkers = 0;
    let boats = 0;
    let lastWalkerSlot = -1;
    for (let slot = 0; slot < 200; slot++) {
      const start = day + slot * ACTOR_SLOT_S * 1000;
      const a = actorOfSlot(start, seed);
      // Within its slot, the same whichever moment of the slot asks.
      expect(actorOfSlot(start + ACTOR_SLOT_S * 1000 - 1, seed)).toEqual(a);
      expect(a.from).toBeGreaterThanOrEqual(start);
      expect(a.to).toBeLessThanOrEqual(start + ACTOR_SLOT_S * 1000);
      if (a.kind === 'walker') {
        walkers++;
        if (lastWalkerSlot >= 0) expect(slot - lastWalkerSlot).toBeLessThanOrEqual(2);
        lastWalkerSlot = slot;
      } else boats++;
    }
    expect(walkers).toBeGreaterThan(120);
    expect(boats).toBeGreaterThan(20);
    // Another camera's actors come at other moments.
    expect(actorOfSlot(day, actorSeed('Bow'))).not.toEqual(actorOfSlot(day, seed));
  });

  it('are in the demo on the first camera that is not PTZ of each of the first ships', () => {
    const cam = (cameraId: string, ptz = false) => ({ cameraId, source: 'synthetic', ...(ptz ? { ptz: {} } : {}) });
    const fleet = {
      shoreUrl: 'ws://127.0.0.1:1',
      ships: [
        { shipId: 'S1', key: 'k', cameras: [cam('S1-C1', true), cam('S1-C2'), cam('S1-C3')] },
        { shipId: 'S2', key: 'k', cameras: [{ cameraId: 'S2-C1', source: 'rtsp://10.0.0.5/1' }, cam('S2-C2')] },
        { shipId: 'S3', key: 'k', cameras: [cam('S3-C1')] },
      ],
    };
    expect([...eventCamerasOf(fleet, 2)]).toEqual(['S1-C2', 'S2-C2']);
    expect([...eventCamerasOf(fleet, 0)]).toEqual([]);
  });

  it('leaves the picture as it was unless asked for', () => {
    const encode = { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' as const };
    const plain = syntheticCameraArgs({ cameraName: 'Bridge', encode, realtime: true });
    expect(plain.join(' ')).not.toMatch(/movie|geq='lum=if/);
    const acted = syntheticCameraArgs({ cameraName: 'Bridge', encode, realtime: true, actors: { seed, walkerImage: walkerImagePath() } });
    expect(acted.join(' ')).toMatch(/movie=/);
  });

  describe('as the detector sees them', () => {
    let detector: Detector;
    beforeAll(async () => {
      detector = await loadDetector();
    }, 60_000);
    afterAll(() => detector?.dispose());

    const shot = async (at: number) => {
      const s = await shootSynthetic('Bridge', at, { width: 640, height: 360 }, fontsFor('Bridge'), undefined, { seed, walkerImage: walkerImagePath() });
      const { data, info } = await sharp(s.jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return { rgb: new Uint8Array(data), width: info.width, height: info.height };
    };

    it('finds the walker as a person where the camera drew it, and nobody when nobody walks', async () => {
      const at = firstWhen(day, (t) => {
        const a = actorAt(t, seed);
        return a?.kind === 'walker' && a.box.x > 0.3 && a.box.x < 0.5;
      });
      const p = await shot(at);
      const found = await detector.detect(p.rgb, p.width, p.height);
      const person = found.find((d) => d.class === 'person');
      expect(person?.score, JSON.stringify(found)).toBeGreaterThanOrEqual(0.5);
      const drawn = actorAt(at, seed)?.box as { x: number; w: number };
      const cx = (person?.box.x ?? 0) + (person?.box.w ?? 0) / 2;
      expect(cx).toBeGreaterThan(drawn.x);
      expect(cx).toBeLessThan(drawn.x + drawn.w);
      const empty = await shot(firstWhen(day, (t) => actorAt(t, seed) === undefined));
      expect((await detector.detect(empty.rgb, empty.width, empty.height)).filter((d) => d.score >= 0.5)).toEqual([]);
    }, 60_000);
  });
});
