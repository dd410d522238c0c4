import { describe, expect, it } from 'vitest';
import { clipArgs } from '../../src/modules/recorder/clip.ts';
import { isTimeZone } from '@ship-cctv/protocol';
import { isConfigActive, minuteOfDay } from '../../src/modules/recorder/schedule.ts';
import { parsePartialFileName, parseSegmentFileName, partialFileName, segmentFileName } from '../../src/modules/recorder/segment-file.ts';

const at = (hh: number, mm: number) => Date.UTC(2026, 0, 5, hh, mm);

describe('recording configurations', () => {
  it('a continuous configuration is active whenever it is enabled', () => {
    expect(isConfigActive({ mode: 'continuous', schedule: [], enabled: true }, at(3, 0))).toBe(true);
    expect(isConfigActive({ mode: 'continuous', schedule: [], enabled: false }, at(3, 0))).toBe(false);
  });

  it('a scheduled one only inside its daily UTC windows [from, to), also across midnight', () => {
    const day = { mode: 'scheduled' as const, schedule: [{ from: 8 * 60, to: 17 * 60 + 30 }], enabled: true };
    expect(isConfigActive(day, at(7, 59))).toBe(false);
    expect(isConfigActive(day, at(8, 0))).toBe(true);
    expect(isConfigActive(day, at(17, 29))).toBe(true);
    expect(isConfigActive(day, at(17, 30))).toBe(false);
    const night = { mode: 'scheduled' as const, schedule: [{ from: 22 * 60, to: 6 * 60 }], enabled: true };
    expect(isConfigActive(night, at(23, 0))).toBe(true);
    expect(isConfigActive(night, at(5, 59))).toBe(true);
    expect(isConfigActive(night, at(12, 0))).toBe(false);
  });

  it("reads the windows on the wall clock of the configuration's time zone, daylight saving included", () => {
    // 08:00–17:30 on board a ship on Beijing time is 00:00–09:30 UTC.
    const beijing = { mode: 'scheduled' as const, schedule: [{ from: 8 * 60, to: 17 * 60 + 30 }], timeZone: 'Asia/Shanghai', enabled: true };
    expect(isConfigActive(beijing, at(0, 0))).toBe(true);
    expect(isConfigActive(beijing, at(9, 29))).toBe(true);
    expect(isConfigActive(beijing, at(9, 30))).toBe(false);
    expect(isConfigActive(beijing, at(23, 59))).toBe(false);
    // London: 08:00 is 08:00 UTC in January and 07:00 UTC in July.
    const london = { mode: 'scheduled' as const, schedule: [{ from: 8 * 60, to: 9 * 60 }], timeZone: 'Europe/London', enabled: true };
    expect(isConfigActive(london, Date.UTC(2026, 0, 5, 8, 30))).toBe(true);
    expect(isConfigActive(london, Date.UTC(2026, 6, 5, 8, 30))).toBe(false);
    expect(isConfigActive(london, Date.UTC(2026, 6, 5, 7, 30))).toBe(true);
    expect(minuteOfDay(Date.UTC(2026, 6, 5, 23, 15), 'Asia/Shanghai')).toBe(7 * 60 + 15);
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('segment file names', () => {
  it('carry the sequence number and the span, so a file can be indexed again', () => {
    const name = segmentFileName(12, 1_795_000_000_000, 1_795_000_060_000);
    expect(name).toBe('000012_1795000000000_1795000060000.mp4');
    expect(parseSegmentFileName(name)).toEqual({ seq: 12, startMs: 1_795_000_000_000, endMs: 1_795_000_060_000 });
    expect(parseSegmentFileName('000012.part')).toBeUndefined();
    expect(parseSegmentFileName('000001_20_10.mp4')).toBeUndefined();
  });

  it('a segment being written names where it starts, so a crash can keep it', () => {
    const name = partialFileName(12, 1_795_000_000_000);
    expect(name).toBe('000012_1795000000000.part');
    expect(parsePartialFileName(name)).toEqual({ seq: 12, startMs: 1_795_000_000_000 });
    expect(parseSegmentFileName(name)).toBeUndefined();
    expect(parsePartialFileName('000012.part')).toBeUndefined();
    expect(parsePartialFileName('000012_1795000000000_1795000060000.mp4')).toBeUndefined();
  });
});

describe('clip command lines', () => {
  it('copies the stream when the clip may start at the keyframe before', () => {
    expect(clipArgs('/tmp/c.mp4', { offsetSeconds: 0.5, durationSeconds: 30, reencode: false })).toEqual([
      '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error',
      '-f', 'mp4', '-i', 'pipe:0',
      '-map', '0:v:0', '-an', '-sn', '-dn',
      '-c', 'copy',
      '-movflags', '+faststart',
      '-progress', 'pipe:1',
      '-y', '-f', 'mp4', '/tmp/c.mp4',
    ]);
  });

  it('re-encodes from the exact start when the keyframe is too far before it', () => {
    expect(clipArgs('/tmp/c.mp4', { offsetSeconds: 3.25, durationSeconds: 30, reencode: true })).toEqual([
      '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error',
      '-f', 'mp4', '-i', 'pipe:0',
      '-map', '0:v:0', '-an', '-sn', '-dn',
      '-ss', '3.250', '-t', '30.000', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
      '-movflags', '+faststart',
      '-progress', 'pipe:1',
      '-y', '-f', 'mp4', '/tmp/c.mp4',
    ]);
  });
});
