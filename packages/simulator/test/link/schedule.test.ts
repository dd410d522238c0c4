import { afterEach, describe, expect, it } from 'vitest';
import {
  LinkSchedule,
  ManualClock,
  PROFILES,
  cycleLengthMs,
  demoScheduleFor,
  phaseAt,
  type LinkControl,
  type LinkPhase,
  type LinkProfileName,
  type LinkState,
} from '../../src/link/index.ts';
import { fleetLinkSchedule } from '../../src/fleet.ts';
import { closeAll, startServer, startShaper } from './helpers.ts';

afterEach(closeAll);

/** Records what the schedule asks of the link, in order. */
class RecordingLink implements LinkControl {
  readonly calls: string[] = [];
  setProfile(profile: { name: string }): void {
    this.calls.push(`profile ${profile.name}`);
  }
  setOutage(inOutage: boolean): void {
    this.calls.push(`outage ${inOutage}`);
  }
}

const portSeaOutage: LinkPhase[] = [
  { profile: PROFILES.FOURTHG, durationMs: 60_000, label: 'port' },
  { profile: PROFILES.VSAT, durationMs: 120_000, label: 'sea' },
  { profile: PROFILES.OFFLINE, durationMs: 30_000, label: 'outage' },
];

function record(schedule: LinkSchedule): { names: LinkProfileName[]; states: LinkState[] } {
  const names: LinkProfileName[] = [];
  const states: LinkState[] = [];
  schedule.on('change', (profile, state) => {
    names.push(profile.name);
    states.push(state);
  });
  return { names, states };
}

describe('LinkSchedule', () => {
  it('advances through its phases on the injected clock and loops', () => {
    const clock = new ManualClock(1_000);
    const link = new RecordingLink();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock, target: link });
    const { names, states } = record(schedule);

    schedule.start();
    expect(names).toEqual(['FOURTHG']);
    clock.advance(59_999);
    expect(names).toEqual(['FOURTHG']);
    clock.advance(1);
    expect(names).toEqual(['FOURTHG', 'VSAT']);
    expect(states.at(-1)?.since).toBe(61_000);
    clock.advance(120_000);
    expect(names).toEqual(['FOURTHG', 'VSAT', 'OFFLINE']);
    clock.advance(30_000);
    expect(names).toEqual(['FOURTHG', 'VSAT', 'OFFLINE', 'FOURTHG']);
    expect(schedule.state.cycle).toBe(1);
    expect(schedule.state.label).toBe('port');
    expect(link.calls).toEqual([
      'profile FOURTHG',
      'outage false',
      'profile VSAT',
      'profile OFFLINE',
      'profile FOURTHG',
    ]);
  });

  it('catches up when the clock jumps over several phases', () => {
    const clock = new ManualClock();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock });
    const { names } = record(schedule);
    schedule.start();
    clock.advance(cycleLengthMs(portSeaOutage) * 2 + 70_000); // two cycles and into "sea"
    expect(schedule.state.phaseProfile.name).toBe('VSAT');
    expect(schedule.state.cycle).toBe(2);
    expect(names.at(-1)).toBe('VSAT');
  });

  it('starts at an offset into the cycle', () => {
    const clock = new ManualClock();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock, startOffsetMs: 190_000 });
    const { names } = record(schedule);
    schedule.start();
    expect(names).toEqual(['OFFLINE']);
    clock.advance(10_000);
    expect(names).toEqual(['OFFLINE']);
    clock.advance(10_000);
    expect(names).toEqual(['OFFLINE', 'FOURTHG']);
    expect(phaseAt(portSeaOutage, 190_000)).toEqual({ index: 2, elapsedMs: 10_000 });
    expect(phaseAt(portSeaOutage, -1)).toEqual({ index: 2, elapsedMs: 29_999 });
  });

  it('stops: no more changes after stop()', () => {
    const clock = new ManualClock();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock });
    const { names } = record(schedule);
    schedule.start();
    schedule.stop();
    clock.advance(1_000_000);
    expect(names).toEqual(['FOURTHG']);
    expect(schedule.running).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('runs outages inside an Iridium phase: OFFLINE reported, profile kept, same history for the same seed', () => {
    const phases: LinkPhase[] = [{ profile: PROFILES.IRIDIUM, durationMs: 3_600_000 }];
    const run = (seed: number): { names: LinkProfileName[]; calls: string[]; outageMs: number } => {
      const clock = new ManualClock();
      const link = new RecordingLink();
      const schedule = new LinkSchedule({ phases, clock, target: link, seed });
      const { names } = record(schedule);
      schedule.start();
      let outageMs = 0;
      for (let t = 0; t < 3_600_000; t += 1_000) {
        if (schedule.state.inOutage) outageMs += 1_000;
        clock.advance(1_000);
      }
      schedule.stop();
      return { names, calls: link.calls, outageMs };
    };
    const a = run(5);
    expect(run(5)).toEqual(a);
    expect(run(6).calls).not.toEqual(a.calls);
    expect(a.names.filter((n) => n === 'OFFLINE').length).toBeGreaterThan(10);
    // Outages switch the outage flag, never the profile: rates persist through them.
    expect(a.calls.filter((c) => c.startsWith('profile'))).toEqual(['profile IRIDIUM']);
    expect(a.calls).toContain('outage true');
    // Roughly 25 s down out of every ~145 s.
    expect(a.outageMs / 3_600_000).toBeGreaterThan(0.05);
    expect(a.outageMs / 3_600_000).toBeLessThan(0.4);
  });

  it('reports quality from the effective profile: baseline ± noise, -1 when offline', () => {
    const clock = new ManualClock();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock, seed: 9 });
    schedule.start();
    const port = Array.from({ length: 50 }, () => schedule.quality());
    for (const q of port) expect(Math.abs(q - PROFILES.FOURTHG.quality)).toBeLessThanOrEqual(PROFILES.FOURTHG.qualityNoise);
    clock.advance(180_000);
    expect(schedule.state.linkType).toBe('OFFLINE');
    expect(schedule.quality()).toBe(-1);
  });

  it('runs once and stays in the last phase when asked', () => {
    const clock = new ManualClock();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock, once: true });
    schedule.start();
    clock.advance(10 * 3_600_000);
    expect(schedule.state.phaseProfile.name).toBe('OFFLINE');
    expect(schedule.state.cycle).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('rejects an empty or zero-length schedule', () => {
    expect(() => new LinkSchedule({ phases: [] })).toThrow();
    expect(() => new LinkSchedule({ phases: [{ profile: PROFILES.VSAT, durationMs: 0 }] })).toThrow();
  });

  it('drives a real shaper', async () => {
    const echo = await startServer();
    const shaper = await startShaper({ profile: PROFILES.FOURTHG, targetPort: echo.port, dropAfterMs: 60_000 });
    const clock = new ManualClock();
    const schedule = new LinkSchedule({ phases: portSeaOutage, clock, target: shaper });
    schedule.start();
    clock.advance(60_000);
    expect(shaper.profile.name).toBe('VSAT');
    expect(shaper.isDown).toBe(false);
    clock.advance(120_000);
    expect(shaper.isDown).toBe(true);
    clock.advance(30_000);
    expect(shaper.isDown).toBe(false);
    expect(shaper.profile.name).toBe('FOURTHG');
  });
});

describe('demoScheduleFor', () => {
  it('gives demo ships different links: mostly VSAT, FBB, Iridium with outages, LEO, 4G in port', () => {
    const specs = Array.from({ length: 6 }, (_, i) => demoScheduleFor(i));
    const main = specs.map((s) => {
      // The profile a ship spends most of its cycle on.
      const time = new Map<string, number>();
      for (const p of s.phases) time.set(p.profile.name, (time.get(p.profile.name) ?? 0) + p.durationMs);
      return [...time.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    });
    expect(main).toEqual(['VSAT', 'VSAT', 'FBB', 'IRIDIUM', 'LEO', 'FOURTHG']);
    expect(specs[0]?.phases.map((p) => p.label)).toEqual(['port', 'sea', 'outage', 'sea']);
    expect(specs[3]?.phases.some((p) => p.outages ?? p.profile.outages)).toBe(true);
    for (const s of specs) {
      expect(cycleLengthMs(s.phases)).toBeGreaterThanOrEqual(4 * 60_000);
      expect(cycleLengthMs(s.phases)).toBeLessThanOrEqual(15 * 60_000);
      expect(s.phases.some((p) => p.profile.name === 'OFFLINE' || p.outages || p.profile.outages)).toBe(true);
    }
    expect(new Set(specs.map((s) => s.seed)).size).toBe(6);
    // Ships beyond six repeat the kinds with their own seed and starting point.
    expect(demoScheduleFor(6).phases).toEqual(specs[0]?.phases);
    expect(demoScheduleFor(6).seed).not.toBe(specs[0]?.seed);
  });

  it('changes a demo ship link within a few minutes of watching', () => {
    for (let i = 0; i < 6; i++) {
      const clock = new ManualClock();
      const schedule = new LinkSchedule({ ...demoScheduleFor(i), clock });
      const { names } = record(schedule);
      schedule.start();
      clock.advance(10 * 60_000);
      expect(new Set(names).size).toBeGreaterThanOrEqual(2);
      schedule.stop();
    }
  });

  it('keeps a steady fleet ship on its first link for good, without the random outages that link has in the demo', () => {
    for (let i = 0; i < 6; i++) {
      const clock = new ManualClock();
      const schedule = new LinkSchedule({ ...fleetLinkSchedule(i, true), clock });
      const { names, states } = record(schedule);
      const first = demoScheduleFor(i).phases[0]?.profile.name;
      schedule.start();
      expect(schedule.state.linkType).toBe(PROFILES[first ?? 'OFFLINE'].linkType);
      for (let m = 0; m < 60; m++) clock.advance(60_000);
      // Only ever its first link (a new lap of its one phase says it again), and never down.
      expect(new Set(names)).toEqual(new Set(names.length ? [first] : []));
      expect(states.every((s) => s.linkType !== 'OFFLINE')).toBe(true);
      expect(schedule.state.linkType).not.toBe('OFFLINE');
      schedule.stop();
    }
    // Iridium (ship 3) drops every 90 s or so in the demo: not when steady.
    const clock = new ManualClock();
    const demo = new LinkSchedule({ ...fleetLinkSchedule(3, false), clock });
    const { states } = record(demo);
    demo.start();
    for (let m = 0; m < 60; m++) clock.advance(60_000);
    expect(states.some((s) => s.linkType === 'OFFLINE')).toBe(true);
    demo.stop();
  });
});
