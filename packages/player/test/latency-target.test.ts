import { describe, expect, it } from 'vitest';
import { autoLatencyTargetMs, frameDurationMs, latencyTargetMs, measuredLatencyTargetMs } from '../src/latency-target.ts';

describe('autoLatencyTargetMs', () => {
  it('holds 250 ms, or a frame plus 150 ms at slow frame rates, on every link', () => {
    for (const link of ['FOURTHG', 'AUTO', 'VSAT', 'FBB', 'FX', 'IRIDIUM', 'IRIDIUM1', 'UNKNOWN', 'OFFLINE', undefined] as const) {
      expect(autoLatencyTargetMs(10, link)).toBe(250);
    }
    expect(autoLatencyTargetMs(25, 'FOURTHG')).toBe(250);
    expect(autoLatencyTargetMs(5, 'FOURTHG')).toBe(350);
    expect(autoLatencyTargetMs(2, 'VSAT')).toBe(650);
  });

  it('assumes 10 fps until the stream says', () => {
    expect(frameDurationMs(undefined)).toBe(100);
    expect(frameDurationMs(0)).toBe(100);
    expect(autoLatencyTargetMs(undefined, 'FOURTHG')).toBe(250);
  });
});

describe('latencyTargetMs', () => {
  it('takes a number as given and works out `auto`', () => {
    expect(latencyTargetMs(200, 10, 'FOURTHG')).toBe(200);
    expect(latencyTargetMs('auto', 10, 'FOURTHG')).toBe(250);
    expect(latencyTargetMs('auto', 10, 'VSAT')).toBe(250);
  });
});

describe('measuredLatencyTargetMs', () => {
  it('holds a frame plus the measured allowance and a 10 ms margin, at least 20 ms over a frame, at most 1.5 s', () => {
    expect(measuredLatencyTargetMs(10, 40)).toBe(150);
    expect(measuredLatencyTargetMs(10, 0)).toBe(120);
    expect(measuredLatencyTargetMs(25, 5)).toBe(60);
    expect(measuredLatencyTargetMs(10, 9_000)).toBe(1_600);
  });

  it('raises an `auto` target above the link figure when the measured jitter needs more, never lowers it, never touches a number given', () => {
    expect(latencyTargetMs('auto', 10, 'VSAT', 30)).toBe(250);
    expect(latencyTargetMs('auto', 10, 'VSAT', 600)).toBe(710);
    expect(latencyTargetMs('auto', 10, 'FOURTHG', 300)).toBe(410);
    expect(latencyTargetMs('auto', 10, 'FOURTHG', 5)).toBe(250);
    expect(latencyTargetMs('auto', 10, 'VSAT', undefined)).toBe(250);
    expect(latencyTargetMs(200, 10, 'VSAT', 600)).toBe(200);
  });
});
