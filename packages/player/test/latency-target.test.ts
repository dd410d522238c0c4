import { describe, expect, it } from 'vitest';
import { autoLatencyTargetMs, frameDurationMs, latencyTargetMs, measuredLatencyTargetMs } from '../src/latency-target.ts';

describe('autoLatencyTargetMs', () => {
  it('holds a frame plus 40 % (at least 40 ms) on a steady link: 4G and LEO (AUTO)', () => {
    expect(autoLatencyTargetMs(10, 'FOURTHG')).toBe(140);
    expect(autoLatencyTargetMs(10, 'AUTO')).toBe(140);
    expect(autoLatencyTargetMs(25, 'FOURTHG')).toBe(80);
    expect(autoLatencyTargetMs(5, 'FOURTHG')).toBe(280);
  });

  it('keeps 300 ms (or a frame plus 200 ms) on satellite links and links not known', () => {
    for (const link of ['VSAT', 'FBB', 'FX', 'IRIDIUM', 'IRIDIUM1', 'UNKNOWN', 'OFFLINE'] as const) {
      expect(autoLatencyTargetMs(10, link)).toBe(300);
    }
    expect(autoLatencyTargetMs(10, undefined)).toBe(300);
    expect(autoLatencyTargetMs(2, 'VSAT')).toBe(700);
  });

  it('assumes 10 fps until the stream says', () => {
    expect(frameDurationMs(undefined)).toBe(100);
    expect(frameDurationMs(0)).toBe(100);
    expect(autoLatencyTargetMs(undefined, 'FOURTHG')).toBe(140);
  });
});

describe('latencyTargetMs', () => {
  it('takes a number as given and works out `auto`', () => {
    expect(latencyTargetMs(200, 10, 'FOURTHG')).toBe(200);
    expect(latencyTargetMs('auto', 10, 'FOURTHG')).toBe(140);
    expect(latencyTargetMs('auto', 10, 'VSAT')).toBe(300);
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
    expect(latencyTargetMs('auto', 10, 'VSAT', 30)).toBe(300);
    expect(latencyTargetMs('auto', 10, 'VSAT', 600)).toBe(710);
    expect(latencyTargetMs('auto', 10, 'FOURTHG', 120)).toBe(230);
    expect(latencyTargetMs('auto', 10, 'FOURTHG', 5)).toBe(140);
    expect(latencyTargetMs('auto', 10, 'VSAT', undefined)).toBe(300);
    expect(latencyTargetMs(200, 10, 'VSAT', 600)).toBe(200);
  });
});
