import { describe, expect, it } from 'vitest';
import { checkPlaybackCommand } from '../../src/modules/playback/commands.ts';

const now = 1_800_000_000_000;
const HOUR = 3_600_000;
const play = (extra: Record<string, unknown> = {}) => ({ type: 'play', mode: 'shipPlayback', cameraId: 'S1001-C01-1', start: now - HOUR, end: now, speed: 16, ...extra });
const message = (msg: unknown) => {
  const r = checkPlaybackCommand(msg, now);
  return r && !r.ok ? r.message : undefined;
};

describe('checkPlaybackCommand', () => {
  it('leaves live and other commands alone', () => {
    expect(checkPlaybackCommand({ type: 'play', mode: 'live', cameraId: 'x' }, now)).toBeUndefined();
    expect(checkPlaybackCommand({ type: 'stop' }, now)).toBeUndefined();
    expect(checkPlaybackCommand({ type: 'continue' }, now)).toBeUndefined();
    expect(checkPlaybackCommand('pause', now)).toBeUndefined();
    expect(checkPlaybackCommand(null, now)).toBeUndefined();
  });

  it('takes a valid play command, keeping only its known fields', () => {
    expect(checkPlaybackCommand({ ...play({ templateId: 6, timeZone: 'China Standard Time' }), extra: 1 }, now)).toEqual({
      ok: true,
      command: { type: 'play', mode: 'shipPlayback', cameraId: 'S1001-C01-1', start: now - HOUR, end: now, speed: 16, templateId: 6, timeZone: 'China Standard Time' },
    });
    // A minute of clock difference is tolerated; every offered speed is accepted.
    for (const speed of [1, 2, 4, 8, 16]) expect(checkPlaybackCommand(play({ end: now + 30_000, speed }), now)?.ok).toBe(true);
  });

  it('says exactly what is wrong with a bad play command', () => {
    expect(message(play({ start: now, end: now - HOUR }))).toBe('the start time must be before the end time');
    expect(message(play({ start: now, end: now }))).toBe('the start time must be before the end time');
    expect(message(play({ end: now + 5 * 60_000 }))).toBe('the end time must not be later than now');
    expect(message(play({ start: now - 8 * 24 * HOUR }))).toBe('a playback covers at most 7 days; choose a shorter range');
    expect(message(play({ speed: 32 }))).toBe('speed must be one of 1, 2, 4, 8, 16');
    expect(message(play({ speed: '16' }))).toBe('speed must be one of 1, 2, 4, 8, 16');
    expect(message(play({ start: 1.5 }))).toBe('"start" and "end" must be epoch milliseconds');
    expect(message(play({ end: undefined }))).toBe('"start" and "end" must be epoch milliseconds');
    expect(message(play({ cameraId: 7 }))).toMatch(/cameraId/);
    expect(message(play({ templateId: -1 }))).toMatch(/templateId/);
    expect(message(play({ timeZone: 5 }))).toMatch(/timeZone/);
  });

  it('checks the controls', () => {
    expect(checkPlaybackCommand({ type: 'pause' }, now)).toEqual({ ok: true, command: { type: 'pause' } });
    expect(checkPlaybackCommand({ type: 'resume' }, now)).toEqual({ ok: true, command: { type: 'resume' } });
    expect(checkPlaybackCommand({ type: 'seek', time: now - 100 }, now)).toEqual({ ok: true, command: { type: 'seek', time: now - 100 } });
    expect(checkPlaybackCommand({ type: 'speed', speed: 4 }, now)).toEqual({ ok: true, command: { type: 'speed', speed: 4 } });
    expect(message({ type: 'seek' })).toMatch(/seek needs "time"/);
    expect(message({ type: 'speed', speed: 3 })).toBe('speed must be one of 1, 2, 4, 8, 16');
  });
});
