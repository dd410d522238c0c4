import { describe, expect, it } from 'vitest';
import type { ShipConfig } from '@ship-cctv/protocol';
import { DefinitionController } from '../../src/modules/live/definition-controller.ts';
import { chooseTemplate } from '../../src/modules/fleet/templates.ts';

const model = (id: number, width: number, height: number, frameRate: number, bitrateKbps: number) => ({
  id,
  displayName: `${width}x${height}`,
  width,
  height,
  frameRate,
  bitrateKbps,
  codec: 'h264',
});

const config: ShipConfig = {
  groupAliasResDTOS: [
    { id: 1, displayName: 'Standard', defaultModelId: 6, models: [model(6, 640, 360, 10, 400), model(5, 320, 180, 5, 150), model(7, 1280, 720, 15, 1200)] },
    { id: 3, displayName: 'Empty', defaultModelId: null, models: [] },
  ],
  defaultGroupId: 1,
  talk: false,
  audio: false,
};

describe('chooseTemplate', () => {
  it("uses the default group's default model when no template is asked for, with the group's lowest as fallback", () => {
    const c = chooseTemplate(config, undefined);
    expect(c).toMatchObject({ ok: true, requested: { id: 6 }, lowest: { id: 5 } });
  });

  it('takes an asked-for model of any of the ship’s groups', () => {
    expect(chooseTemplate(config, 7)).toMatchObject({ ok: true, requested: { id: 7, width: 1280 }, lowest: { id: 5 } });
  });

  it('never falls back to a heavier definition than the one asked: a satellite-tier stream stays at its tier', () => {
    const satellite = { ...config, groupAliasResDTOS: [{ ...config.groupAliasResDTOS[0]!, models: [...config.groupAliasResDTOS[0]!.models, model(11, 320, 180, 3, 32)] }] };
    expect(chooseTemplate(satellite, 11)).toMatchObject({ ok: true, requested: { id: 11 }, lowest: { id: 11 } });
    expect(chooseTemplate(satellite, 6)).toMatchObject({ ok: true, requested: { id: 6 }, lowest: { id: 5 } });
  });

  it('refuses a template the ship does not have', () => {
    expect(chooseTemplate(config, 99)).toEqual({ ok: false, error: 'unknownTemplate' });
  });

  it('answers noDefaultTemplate for a ship without a default group (nothing may start)', () => {
    expect(chooseTemplate({ ...config, defaultGroupId: null }, undefined)).toEqual({ ok: false, error: 'noDefaultTemplate' });
    // A default group whose default model is missing is no default either.
    const broken: ShipConfig = { ...config, groupAliasResDTOS: [{ ...config.groupAliasResDTOS[0]!, defaultModelId: 42 }] };
    expect(chooseTemplate(broken, undefined)).toEqual({ ok: false, error: 'noDefaultTemplate' });
  });
});

describe('DefinitionController', () => {
  const opts = { degradeAboveMs: 1000, degradeAfterReports: 2, restoreBelowMs: 200, restoreAfterMs: 10_000, maxRestoreAfterMs: 40_000 };

  it('degrades only after consecutive congested reports', () => {
    const c = new DefinitionController(opts);
    expect(c.report(1500, 0)).toBeUndefined();
    expect(c.report(100, 1000)).toBeUndefined(); // one clear report resets the count
    expect(c.report(1500, 2000)).toBeUndefined();
    expect(c.report(1600, 3000)).toBe('degrade');
    expect(c.isDegraded).toBe(true);
  });

  it('restores only after the link stayed clear for the hold time', () => {
    const c = new DefinitionController(opts);
    c.report(2000, 0);
    c.report(2000, 1000);
    expect(c.report(100, 2000)).toBeUndefined();
    expect(c.report(500, 6000)).toBeUndefined(); // not clear: the clock restarts
    expect(c.report(100, 7000)).toBeUndefined();
    expect(c.report(100, 16_000)).toBeUndefined();
    expect(c.report(100, 17_000)).toBe('restore');
    expect(c.isDegraded).toBe(false);
  });

  it('doubles the hold time when the link relapses soon after a restore (no flapping)', () => {
    const c = new DefinitionController(opts);
    c.report(2000, 0);
    c.report(2000, 1000);
    c.report(0, 2000);
    expect(c.report(0, 12_000)).toBe('restore');
    c.report(2000, 13_000);
    expect(c.report(2000, 14_000)).toBe('degrade');
    c.report(0, 15_000);
    expect(c.report(0, 25_000)).toBeUndefined(); // 10 s is no longer enough
    expect(c.report(0, 35_000)).toBe('restore'); // 20 s is
  });
  it('lets a verdict nothing measured for the hold time go stale: a new stream starts at what is asked, the relapse memory stays', () => {
    const c = new DefinitionController(opts);
    c.report(2000, 0);
    c.report(2000, 1000);
    expect(c.degradedForNewStream(5000)).toBe(true); // measured 4 s ago: still current
    expect(c.degradedForNewStream(10_999)).toBe(true);
    expect(c.degradedForNewStream(11_000)).toBe(false); // nothing for the 10 s hold
    expect(c.isDegraded).toBe(false);
    // A restore, then a relapse soon after: the hold doubles, and so does the time to go stale.
    c.report(2000, 12_000);
    expect(c.report(2000, 13_000)).toBe('degrade');
    c.report(0, 14_000);
    expect(c.report(0, 24_000)).toBe('restore');
    c.report(2000, 25_000);
    expect(c.report(2000, 26_000)).toBe('degrade');
    expect(c.degradedForNewStream(36_000)).toBe(true);
    expect(c.degradedForNewStream(46_000)).toBe(false);
  });

  it('judged afresh for a lighter load, it steps up at once; a relapse soon after doubles the hold as after any restore', () => {
    const c = new DefinitionController(opts);
    c.report(2000, 0);
    expect(c.report(2000, 1000)).toBe('degrade');
    c.judgeAfresh(3000);
    expect(c.isDegraded).toBe(false);
    c.report(2000, 4000);
    expect(c.report(2000, 5000)).toBe('degrade');
    c.report(0, 6000);
    expect(c.report(0, 16_000)).toBeUndefined(); // 10 s is no longer enough
    expect(c.report(0, 26_000)).toBe('restore');
  });
});

describe('LagMeter', () => {
  it('reports how far arriving media falls behind real time, beyond its best moment, once per interval', async () => {
    const { LagMeter } = await import('../../src/modules/live/live-source.ts');
    const m = new LagMeter(1000);
    expect(m.fragment(10, 0)).toBeUndefined(); // the first fragment sets the baseline
    // Media arrives at real-time pace with 200 ms of jitter: no lag to report.
    expect(m.fragment(10.5, 700)).toBeUndefined();
    expect(m.fragment(11.0, 1000)).toBe(0);
    // Now only a third of real time arrives each second: the lag grows.
    expect(m.fragment(11.33, 2000)).toBeCloseTo(670, -1);
    expect(m.fragment(11.66, 3000)).toBeCloseTo(1340, -1);
    m.reset();
    expect(m.fragment(50, 4000)).toBeUndefined();
    expect(m.fragment(51, 5000)).toBe(0);
  });
});
