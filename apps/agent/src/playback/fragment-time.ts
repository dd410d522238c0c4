/**
 * Media time in fragmented MP4, read and moved in place with the shared readers
 * (@ship-cctv/media): the video track's timescale and each fragment's start. A playback made of
 * several ffmpeg runs (one per recorded span, and one more after each resume) is stitched into one
 * stream with one init segment by moving each run's fragments to where the previous run stopped,
 * so the shore player sees played time run on without a jump. Every track moves by the same time
 * (each in its own timescale), so sound stays with the picture.
 */
import { parseInitSegment, readBaseDecodeTime, readVideoTrack, shiftDecodeTimes } from '@ship-cctv/media';

export interface TrackClock {
  /** The video track: its id and ticks per second. */
  videoTrackId: number;
  timescale: number;
  /** Ticks per second of every track, by id. */
  timescales: ReadonlyMap<number, number>;
}

/** The tracks' clocks of an init segment; undefined when it has no readable video track. */
export function trackClock(init: Uint8Array): TrackClock | undefined {
  const video = readVideoTrack(init);
  if (!video || video.timescale === 0) return undefined;
  let timescales = new Map<number, number>([[video.trackId, video.timescale]]);
  try {
    timescales = new Map(parseInitSegment(init).tracks.map((t) => [t.trackId, t.timescale]));
  } catch {
    // Read leniently: the video's clock is enough to stitch a video-only stream.
  }
  return { videoTrackId: video.trackId, timescale: video.timescale, timescales };
}

/** A fragment's decode start in the video's ticks; undefined without a tfdt. */
export function fragmentStart(fragment: Uint8Array, clock: TrackClock): number | undefined {
  return readBaseDecodeTime(fragment, clock.videoTrackId) ?? readBaseDecodeTime(fragment);
}

/** Moves every track of a fragment by `seconds` (in place). Throws when a track has no tfdt or a 32-bit one overflows. */
export function shiftFragment(fragment: Uint8Array, seconds: number, clock: TrackClock): void {
  if (seconds === 0) return;
  shiftDecodeTimes(fragment, (trackId) => seconds * (clock.timescales.get(trackId) ?? clock.timescale));
}
