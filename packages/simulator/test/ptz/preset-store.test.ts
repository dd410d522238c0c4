import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PresetStore } from '../../src/ptz/preset-store.ts';
import { PtzError } from '../../../../apps/agent/src/ptz/ptz-backend.ts';
import { SyntheticPtz } from '../../src/ptz/synthetic-ptz.ts';
import { tempDir } from '../../../../apps/agent/test/media/helpers.ts';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
const fileIn = () => {
  const d = tempDir('ptz-presets-');
  dirs.push(d);
  return join(d.dir, 'ptz', 'S1-C01-1.json');
};

describe('PTZ presets on the ship', () => {
  it('keeps presets across a restart (a new store on the same file), ids never reused', () => {
    const file = fileIn();
    const a = new PresetStore(file);
    const one = a.set('Gangway', { x: 0.3, y: 0.4, zoom: 2 });
    const two = a.set('Bow 船首', { x: 0.7, y: 0.3, zoom: 1 });
    a.remove(two.presetId);
    const b = new PresetStore(file);
    expect(b.list()).toEqual([one]);
    expect(b.get(one.presetId)?.position).toEqual({ x: 0.3, y: 0.4, zoom: 2 });
    expect(b.set('Stern', { x: 0.5, y: 0.5, zoom: 1 }).presetId).not.toBe(two.presetId);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ presets: [{ name: 'Gangway' }, { name: 'Stern' }] });
  });

  it('overwrites a preset by id, refuses an unknown one, clamps positions out of range', () => {
    const s = new PresetStore(fileIn());
    const p = s.set('A', { x: 0.3, y: 0.3, zoom: 1 });
    expect(s.set('B', { x: 9, y: -1, zoom: 7 }, p.presetId)).toEqual({ presetId: p.presetId, name: 'B' });
    expect(s.get(p.presetId)?.position).toEqual({ x: 1 - 1 / 16, y: 1 / 16, zoom: 4 });
    expect(() => s.set('C', { x: 0.5, y: 0.5, zoom: 1 }, 'p999')).toThrow(PtzError);
    expect(() => s.remove('p999')).toThrow(/no preset p999/);
  });

  it('starts empty from a damaged file and skips entries it cannot read', () => {
    const file = fileIn();
    new PresetStore(file);
    writeFileSync(file, '{"presets":[{"presetId":"p4","name":"ok","position":{"x":0.5,"y":0.5,"zoom":1}},{"presetId":"p5"}]}');
    const s = new PresetStore(file);
    expect(s.list()).toEqual([{ presetId: 'p4', name: 'ok' }]);
    expect(s.set('next', { x: 0.5, y: 0.5, zoom: 1 }).presetId).toBe('p5');
    writeFileSync(file, 'not json');
    expect(new PresetStore(file).list()).toEqual([]);
  });

  it('the synthetic camera goes to a preset where it was set, and answers notFound for a removed one', async () => {
    let now = 1_000_000;
    const ptz = new SyntheticPtz({ presetsFile: fileIn(), now: () => now });
    await ptz.move(1, -1, 0, 2_000);
    now += 1_000;
    const there = ptz.position();
    const preset = await ptz.setPreset('Here');
    now += 1_000;
    expect(ptz.position()).not.toEqual(there);
    await ptz.gotoPreset(preset.presetId);
    expect(ptz.position()).toEqual(there);
    await ptz.removePreset(preset.presetId);
    await expect(ptz.gotoPreset(preset.presetId)).rejects.toMatchObject({ code: 'notFound' });
    ptz.close();
  });
});
