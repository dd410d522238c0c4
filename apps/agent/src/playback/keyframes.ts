import { readFileSync } from 'node:fs';
import { Fmp4Reader } from '../media/fmp4.ts';
import { type TrackClock, fragmentStart, trackClock } from './fragment-time.ts';

/**
 * Where playback of a recorded segment really starts: the last keyframe at or before `seconds`
 * into the segment (times from its first keyframe, where the index's start lies) (a recorded segment is fragmented MP4 cut at keyframes, so each keyframe starts a
 * fragment). Playback can only begin at a keyframe; starting the run there — not at the requested
 * moment with the earlier keyframe shown under the requested time — labels the first frame with
 * the time it was recorded. Undefined when the file has no readable keyframe.
 */
export function keyframeAtOrBefore(path: string, seconds: number): number | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  let clock: TrackClock | undefined;
  let found: number | undefined;
  let origin: number | undefined;
  let units;
  try {
    // A segment still being written may end inside a fragment: what is whole is enough.
    units = new Fmp4Reader().push(bytes);
  } catch {
    return undefined;
  }
  for (const unit of units) {
    if (unit.kind === 'init') clock = trackClock(unit.bytes);
    else if (unit.keyframe && clock) {
      const start = fragmentStart(unit.bytes, clock);
      if (start === undefined) continue;
      origin ??= start;
      const at = (start - origin) / clock.timescale;
      if (at > seconds + 1e-6) break;
      found = at;
    }
  }
  return found;
}
