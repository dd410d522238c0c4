import { frameDurationMs } from './latency-target.ts';
import { type Ranges, STUCK_SEC } from './live-edge.ts';

/** Allowance for float error when asking whether currentTime lies in a range. */
const EPSILON_SEC = 0.01;
/** How far a stuck playhead is moved: within the frame it shows, so no frame is skipped. */
const NUDGE_SEC = 0.001;

export interface PlaybackHeadInput {
  /**
   * How long the element has been waiting although it should play (readyState below
   * HAVE_FUTURE_DATA, or a clock that did not move since the last look).
   */
  stuckSec?: number;
  /** Duration of one frame (media seconds). */
  frameSec?: number;
}

/**
 * Recorded video is played as it comes, every frame, at rate 1 (the ship already sends it at the
 * chosen speed: the media time runs in *played* time). Two corrections:
 * - a playhead that sits before the first buffered range or in a gap between ranges moves to the
 *   start of the next range (Chrome does not play across a gap by itself);
 * - an element that has waited `STUCK_SEC` with more than a frame buffered ahead of it is moved a
 *   hair forward, onto the frame it shows. Chrome does not always restart its clock once it ran
 *   dry: a playback that starts as the ship sends its first frames runs dry at once, and then
 *   crawls (a hundredth of a second per second) while seconds of media pile up ahead. A seek into
 *   the buffer restarts it and skips nothing.
 * A playhead past the end waits for more.
 */
export function decidePlaybackHead(currentTime: number, ranges: Ranges, input: PlaybackHeadInput = {}): number | undefined {
  const { stuckSec = 0, frameSec = frameDurationMs(undefined) / 1000 } = input;
  for (const [start, end] of ranges) {
    if (currentTime < start - EPSILON_SEC) return start;
    if (currentTime <= end + EPSILON_SEC) {
      const stuck = stuckSec >= STUCK_SEC && end - currentTime > frameSec + EPSILON_SEC;
      return stuck ? currentTime + NUDGE_SEC : undefined;
    }
  }
  return undefined;
}

/** Seconds of media buffered ahead of the playhead (0 when it is outside every range). */
export function bufferedAhead(currentTime: number, ranges: Ranges): number {
  for (const [start, end] of ranges) {
    if (currentTime >= start - EPSILON_SEC && currentTime <= end + EPSILON_SEC) return Math.max(0, end - currentTime);
  }
  return 0;
}

/**
 * Where to put the playhead to show media from `time` on: `time` itself when it is buffered, else
 * the start of the first range after it (a decoder may start a little after the placed time).
 * Undefined until media reaching past `time` is buffered.
 */
export function landingFor(time: number, ranges: Ranges): number | undefined {
  for (const [start, end] of ranges) {
    if (end > time + EPSILON_SEC) return Math.max(start, time);
  }
  return undefined;
}

/**
 * The recorded time of the frame on screen. A `position` names the recorded time the ship was
 * sending when it came; `mediaEnd` is where the buffer ended then (media seconds), i.e. where that
 * recorded time will show. The playhead is `mediaEnd − currentTime` media seconds from there, which
 * at `speed`× stand for `speed` times as much recorded time. Clamped to the range.
 */
export function shownRecordedTime(
  position: { time: number; speed: number; mediaEnd: number | undefined },
  currentTime: number,
  range?: { start: number; end: number },
): number {
  // Negative once the playhead has passed that point: the shown time is then ahead of `time`.
  const behindSec = position.mediaEnd === undefined ? 0 : position.mediaEnd - currentTime;
  const time = position.time - behindSec * 1000 * position.speed;
  return range ? Math.min(range.end, Math.max(range.start, time)) : time;
}
