import type { StillTakeState } from '@ship-cctv/protocol';

/** The latest take shore asked for a camera's stills, as the camera_stills row keeps it. */
export interface TakeRecord {
  pictureId: string;
  requestedAt: number;
  state: StillTakeState;
  /** Whether the picture is on shore. */
  stored: boolean;
}

export interface StillTiming {
  /** An asked take holds back the next one this long at most (the ship has that long to answer). */
  askMs: number;
  /** A taken picture still crossing holds back the next one this long at most (a slow link is not given a second picture to carry). */
  crossingMs: number;
  /** While a take is on its way, the cell asks again this often (a STOMP event usually comes first). */
  pendingPollMs: number;
}

export const STILL_TIMING: StillTiming = { askMs: 35_000, crossingMs: 10 * 60_000, pendingPollMs: 5_000 };

/** Whether a take is still on its way: asked and not answered, or taken and crossing. */
export function onItsWay(take: TakeRecord | undefined, now: number, timing: StillTiming = STILL_TIMING): boolean {
  if (!take || take.stored) return false;
  if (take.state === 'asked') return now < take.requestedAt + timing.askMs;
  if (take.state === 'taken') return now < take.requestedAt + timing.crossingMs;
  return false;
}

/**
 * Whether shore asks the ship for a new still now, and when the cell should ask again: a new
 * picture is due a period after the newest one shows and after the latest take was asked, and
 * never while one is on its way — however many viewers ask.
 */
export function stillDue(
  now: number,
  everyMs: number,
  newestTakenAt: number | undefined,
  take: TakeRecord | undefined,
  timing: StillTiming = STILL_TIMING,
): { take: boolean; nextInMs: number } {
  const pendingPoll = Math.min(everyMs, timing.pendingPollMs);
  if (onItsWay(take, now, timing)) return { take: false, nextInMs: pendingPoll };
  const dueAt = Math.max((newestTakenAt ?? -Infinity) + everyMs, (take?.requestedAt ?? -Infinity) + everyMs);
  if (now >= dueAt) return { take: true, nextInMs: pendingPoll };
  return { take: false, nextInMs: Math.max(Math.ceil(dueAt - now), 250) };
}
