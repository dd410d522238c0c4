import { PLAYBACK_SPEEDS, SHIP_PLAYBACK_MAX_RANGE_MS, type PlaybackControlCommand, type PlaybackSpeed, type ShipPlaybackCommand } from '@ship-cctv/protocol';

export interface PlaybackLimits {
  /** How far past shore's clock `end` may lie (the ship's and the browser's clocks differ a little). */
  clockSkewMs: number;
  /** Longest range one playback may cover. */
  maxRangeMs: number;
}

export const PLAYBACK_LIMITS: PlaybackLimits = { clockSkewMs: 60_000, maxRangeMs: SHIP_PLAYBACK_MAX_RANGE_MS };

export type PlaybackCommand = ShipPlaybackCommand | PlaybackControlCommand;

export type PlaybackCommandCheck = { ok: true; command: PlaybackCommand } | { ok: false; message: string };

const CONTROL_TYPES = new Set(['pause', 'resume', 'seek', 'speed']);
const SPEEDS_TEXT = [...PLAYBACK_SPEEDS].reverse().join(', ');

const isEpochMs = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
export const isPlaybackSpeed = (v: unknown): v is PlaybackSpeed => (PLAYBACK_SPEEDS as readonly unknown[]).includes(v);

/**
 * Checks a media-socket command of ship-end playback and says exactly what is wrong with a bad one.
 * Answers undefined for anything that is not a playback command (live commands, stop, continue).
 */
export function checkPlaybackCommand(msg: unknown, now: number, limits: PlaybackLimits = PLAYBACK_LIMITS): PlaybackCommandCheck | undefined {
  if (typeof msg !== 'object' || msg === null) return undefined;
  const m = msg as Record<string, unknown>;
  if (m.type === 'play' && m.mode === 'shipPlayback') return checkPlay(m, now, limits);
  if (typeof m.type !== 'string' || !CONTROL_TYPES.has(m.type)) return undefined;
  switch (m.type) {
    case 'seek':
      if (!isEpochMs(m.time)) return { ok: false, message: 'seek needs "time": epoch milliseconds inside the playback range' };
      return { ok: true, command: { type: 'seek', time: m.time } };
    case 'speed':
      if (!isPlaybackSpeed(m.speed)) return { ok: false, message: `speed must be one of ${SPEEDS_TEXT}` };
      return { ok: true, command: { type: 'speed', speed: m.speed } };
    case 'pause':
      return { ok: true, command: { type: 'pause' } };
    default:
      return { ok: true, command: { type: 'resume' } };
  }
}

function checkPlay(m: Record<string, unknown>, now: number, limits: PlaybackLimits): PlaybackCommandCheck {
  const fail = (message: string): PlaybackCommandCheck => ({ ok: false, message });
  if (typeof m.cameraId !== 'string' || m.cameraId.length === 0 || m.cameraId.length > 64) {
    return fail('shipPlayback needs "cameraId" (1 to 64 characters)');
  }
  if (m.templateId !== undefined && !(Number.isSafeInteger(m.templateId) && (m.templateId as number) >= 1)) {
    return fail('"templateId" must be a positive integer (or left out for the ship\'s default definition)');
  }
  if (!isEpochMs(m.start) || !isEpochMs(m.end)) return fail('"start" and "end" must be epoch milliseconds');
  if (m.start >= m.end) return fail('the start time must be before the end time');
  if (m.end > now + limits.clockSkewMs) return fail('the end time must not be later than now');
  if (m.end - m.start > limits.maxRangeMs) {
    return fail(`a playback covers at most ${Math.round(limits.maxRangeMs / 86_400_000)} days; choose a shorter range`);
  }
  if (!isPlaybackSpeed(m.speed)) return fail(`speed must be one of ${SPEEDS_TEXT}`);
  if (m.timeZone !== undefined && (typeof m.timeZone !== 'string' || m.timeZone.length > 100)) {
    return fail('"timeZone" must be a time zone name (timezones.json value)');
  }
  const decoders = m.decoders;
  if (decoders !== undefined && !(Array.isArray(decoders) && decoders.every((d) => typeof d === 'string'))) {
    return fail('"decoders" must be a list of codec prefixes, such as ["avc1","hvc1"]');
  }
  return {
    ok: true,
    command: {
      type: 'play',
      mode: 'shipPlayback',
      cameraId: m.cameraId,
      start: m.start,
      end: m.end,
      speed: m.speed,
      ...(m.templateId !== undefined ? { templateId: m.templateId as number } : {}),
      ...(typeof m.timeZone === 'string' ? { timeZone: m.timeZone } : {}),
      ...(decoders !== undefined ? { decoders: decoders as string[] } : {}),
    },
  };
}
