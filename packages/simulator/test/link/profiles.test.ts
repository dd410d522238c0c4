import { LINK_TYPES, signalColour } from '@ship-cctv/protocol';
import { describe, expect, it } from 'vitest';
import {
  PROFILES,
  PROFILE_NAMES,
  isOffline,
  outageWindows,
  queueBoundBytes,
  rateKbps,
  roundTripMs,
  sampleDelayMs,
  sampleQuality,
  seededRandom,
  segmentBytes,
  serialisationMs,
  withOverrides,
} from '../../src/link/index.ts';

describe('link profiles', () => {
  it('has the figures the issue names', () => {
    expect(PROFILE_NAMES).toEqual(['VSAT', 'FBB', 'FOURTHG', 'IRIDIUM', 'LEO', 'OFFLINE']);
    expect(roundTripMs(PROFILES.VSAT)).toBe(600);
    expect(PROFILES.VSAT.upKbps).toBe(2_000);
    expect(roundTripMs(PROFILES.FBB)).toBe(700);
    expect(PROFILES.FBB.upKbps).toBe(400);
    expect(roundTripMs(PROFILES.FOURTHG)).toBe(60);
    expect(PROFILES.FOURTHG.upKbps).toBe(10_000);
    expect(PROFILES.IRIDIUM.upKbps).toBe(350);
    expect(PROFILES.IRIDIUM.outages).toBeDefined();
    expect(roundTripMs(PROFILES.LEO)).toBe(50);
    expect(PROFILES.LEO.upKbps).toBe(20_000);
  });

  it('reports spec link values, LEO as AUTO, and never gives a ship more up than down', () => {
    for (const p of Object.values(PROFILES)) {
      expect(LINK_TYPES).toContain(p.linkType);
      expect(p.upKbps).toBeLessThanOrEqual(p.downKbps);
    }
    expect(PROFILES.LEO.linkType).toBe('AUTO');
    expect(PROFILES.FOURTHG.linkType).toBe('FOURTHG');
  });

  it('knows when a link carries nothing', () => {
    expect(isOffline(PROFILES.OFFLINE)).toBe(true);
    expect(isOffline(PROFILES.IRIDIUM)).toBe(false);
    expect(isOffline(withOverrides(PROFILES.VSAT, { upKbps: 0, downKbps: 0 }))).toBe(true);
    expect(rateKbps(PROFILES.VSAT, 'up')).toBe(2_000);
    expect(rateKbps(PROFILES.VSAT, 'down')).toBe(6_000);
  });

  it('computes serialisation time, queue bound and segment size from the rate', () => {
    expect(serialisationMs(1_000, 8)).toBe(1_000); // 8 kbit/s: 1 byte per ms
    expect(serialisationMs(256 * 1024, 1_000)).toBeCloseTo(2_097.152);
    expect(serialisationMs(1, 0)).toBe(Infinity);
    expect(queueBoundBytes(400)).toBe(64 * 1024); // the minimum
    expect(queueBoundBytes(20_000)).toBe(2_500_000); // one second of the link
    expect(queueBoundBytes(0)).toBe(64 * 1024);
    expect(segmentBytes(100)).toBe(1_460);
    expect(segmentBytes(20_000)).toBe(25_000); // 10 ms
    expect(segmentBytes(10_000_000)).toBe(64 * 1024);
  });

  it('samples delay within the jitter and quality within the noise, repeatably', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const delays = Array.from({ length: 200 }, () => sampleDelayMs(PROFILES.FBB, a));
    for (const d of delays) expect(Math.abs(d - 350)).toBeLessThanOrEqual(40);
    expect(new Set(delays.map(Math.round)).size).toBeGreaterThan(10);
    expect(Array.from({ length: 200 }, () => sampleDelayMs(PROFILES.FBB, b))).toEqual(delays);

    const r = seededRandom(3);
    const qualities = Array.from({ length: 200 }, () => sampleQuality(PROFILES.VSAT, r));
    for (const q of qualities) {
      expect(Number.isInteger(q)).toBe(true);
      expect(Math.abs(q - 86)).toBeLessThanOrEqual(8);
    }
    // VSAT reads mostly green or light green on the operators' screen.
    expect(new Set(qualities.map(signalColour))).toEqual(new Set(['green', 'lightGreen']));
    expect(sampleQuality(withOverrides(PROFILES.VSAT, { quality: 98, qualityNoise: 10 }), r)).toBeLessThanOrEqual(100);
    expect(sampleQuality(PROFILES.OFFLINE, r)).toBe(-1);
    expect(signalColour(sampleQuality(PROFILES.OFFLINE, r))).toBe('white');
  });

  it('clips and merges fixed outage windows to the phase', () => {
    const windows = outageWindows(
      {
        windows: [
          { startMs: 50_000, durationMs: 20_000 },
          { startMs: 10_000, durationMs: 5_000 },
          { startMs: 12_000, durationMs: 5_000 }, // overlaps the previous one
          { startMs: 95_000, durationMs: 30_000 }, // runs past the phase end
          { startMs: 200_000, durationMs: 1_000 }, // after the phase
        ],
      },
      100_000,
      seededRandom(1),
    );
    expect(windows).toEqual([
      { startMs: 10_000, durationMs: 7_000 },
      { startMs: 50_000, durationMs: 20_000 },
      { startMs: 95_000, durationMs: 5_000 },
    ]);
    expect(outageWindows(undefined, 100_000, seededRandom(1))).toEqual([]);
  });

  it('draws random outages of tens of seconds, inside the phase, same for the same seed', () => {
    const pattern = PROFILES.IRIDIUM.outages;
    const hour = 3_600_000;
    const windows = outageWindows(pattern, hour, seededRandom(42));
    expect(outageWindows(pattern, hour, seededRandom(42))).toEqual(windows);
    expect(outageWindows(pattern, hour, seededRandom(43))).not.toEqual(windows);
    // Mean every 120 s + 25 s each: about 25 an hour.
    expect(windows.length).toBeGreaterThan(10);
    expect(windows.length).toBeLessThan(50);
    let lastEnd = 0;
    for (const w of windows) {
      expect(w.startMs).toBeGreaterThanOrEqual(lastEnd);
      expect(w.durationMs).toBeGreaterThanOrEqual(12_500 - 1);
      expect(w.durationMs).toBeLessThanOrEqual(37_500 + 1);
      lastEnd = w.startMs + w.durationMs;
    }
    expect(lastEnd).toBeLessThanOrEqual(hour);
  });
});
