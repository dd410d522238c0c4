import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Detector, centernetDir, loadDetector, loadDetectorInWorker } from '../../src/events/analyser/detector.ts';
import { FLOWER_PNG, PEOPLE, SAMPLES_JPG, flat, paste, rgbOf } from './pictures.ts';

// The real detector (CenterNet from @vladmandic/human on TensorFlow.js WASM) on known pictures.
describe('object detector', () => {
  let detector: Detector;
  beforeAll(async () => {
    detector = await loadDetector();
  }, 60_000);
  afterAll(() => detector?.dispose());

  it('finds the person in each photograph of a person, over the whole body', async () => {
    // Small pictures (158 px high) enlarged to the network's 512: scores are modest, but every one is a person.
    for (const region of Object.values(PEOPLE)) {
      const p = await rgbOf(SAMPLES_JPG, region);
      const found = await detector.detect(p.rgb, p.width, p.height);
      const person = found.find((d) => d.class === 'person');
      expect(person?.score, JSON.stringify(found)).toBeGreaterThanOrEqual(0.4);
      expect(person?.box.h).toBeGreaterThan(0.8);
    }
    const render = await rgbOf(SAMPLES_JPG, PEOPLE.standingRender);
    expect((await detector.detect(render.rgb, render.width, render.height))[0]).toMatchObject({ class: 'person', score: expect.closeTo(0.59, 1) });
  }, 60_000);

  it('finds a person pasted into a scene, where the person stands', async () => {
    const person = await rgbOf(SAMPLES_JPG, PEOPLE.standingPhoto);
    const scene = paste(flat(320, 320, [27, 58, 87]), person, 200, 120);
    const found = await detector.detect(scene.rgb, scene.width, scene.height);
    const p = found.find((d) => d.class === 'person');
    expect(p?.score, JSON.stringify(found)).toBeGreaterThanOrEqual(0.5);
    const cx = (p?.box.x ?? 0) + (p?.box.w ?? 0) / 2;
    expect(cx * 320).toBeGreaterThan(200);
    expect(cx * 320).toBeLessThan(200 + person.width);
  }, 60_000);

  it('finds nobody in a photograph without people, nor in an empty picture', async () => {
    const flower = await rgbOf(FLOWER_PNG);
    expect((await detector.detect(flower.rgb, flower.width, flower.height)).filter((d) => d.score >= 0.5)).toEqual([]);
    const empty = flat(320, 180, [27, 58, 87]);
    expect((await detector.detect(empty.rgb, empty.width, empty.height)).filter((d) => d.score >= 0.5)).toEqual([]);
  }, 60_000);

  it('does not load from a folder without the model, and says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-model-'));
    await expect(loadDetector(dir)).rejects.toThrow(/centernet\.json/);
    writeFileSync(join(dir, 'centernet.json'), '{"modelTopology":');
    await expect(loadDetector(dir)).rejects.toThrow(/JSON/);
    expect(centernetDir()).toMatch(/@vladmandic\/human\/models$/);
  });
});

describe('object detector in a worker thread', () => {
  it('finds the same person as on the agent\'s thread, leaves the caller its frame, and says why it cannot load', async () => {
    const detector = await loadDetectorInWorker();
    try {
      const p = await rgbOf(SAMPLES_JPG, PEOPLE.standingRender);
      const before = p.rgb.length;
      const [person] = await detector.detect(p.rgb, p.width, p.height);
      expect(person).toMatchObject({ class: 'person', score: expect.closeTo(0.59, 1) });
      expect(p.rgb.length).toBe(before);
    } finally {
      detector.dispose();
    }
    await expect(loadDetectorInWorker(mkdtempSync(join(tmpdir(), 'no-model-')))).rejects.toThrow(/centernet\.json/);
  }, 60_000);
});
