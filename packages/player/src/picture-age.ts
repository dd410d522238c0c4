import { medianOf, notePresentation } from './stats.ts';

/** Producer times kept for pictures not shown yet (and a few shown): 6 s at 10 fps. */
const PRODUCED_KEPT = 60;
/** Ages of the last pictures shown, whose median is the age reported. */
const AGE_SAMPLES = 10;
/** An age beyond this (or below 0) means the ship's and this browser's clocks disagree: not shown. */
const MAX_BELIEVABLE_AGE_MS = 120_000;
/** Only pictures shown lately count: none for a while (a stall) says nothing. */
const RECENT_MS = 2_000;

/**
 * How old the picture on screen is (stats.pictureAgeMs of both live players, the cell's latency):
 * when the browser put it on screen (a requestVideoFrameCallback, where the browser has one) minus
 * when the ship's encoder put it out (the fragment's producer reference time, ship clock), the
 * median over the last pictures shown. Media times are in the caller's unit (buffer seconds, stream ms).
 */
export class PictureAge {
  /** When the pictures not shown yet left the encoder: [media time, epoch ms], in presentation order. */
  private readonly produced: Array<[media: number, wallMs: number]> = [];
  private readonly ages: Array<{ ms: number; at: number }> = [];

  /** The picture at `media` left the encoder at `wallMs`; noted as it arrives (B-frames: out of order). */
  noteProduced(media: number, wallMs: number): void {
    notePresentation(this.produced, media, wallMs);
    if (this.produced.length > PRODUCED_KEPT) this.produced.shift();
  }

  /**
   * The picture at `media` is on screen since `shownAtMs` (epoch ms; now by default); `halfFrame`
   * (half a frame's duration, same unit) is how near counts.
   */
  noteShown(media: number, halfFrame: number, shownAtMs = Date.now()): void {
    const list = this.produced;
    let i = 0;
    while (i < list.length && (list[i]?.[0] ?? 0) < media - halfFrame) i++;
    const hit = list[i];
    // Older entries are of pictures shown already (or skipped): dropped.
    list.splice(0, i);
    if (!hit || Math.abs(hit[0] - media) > halfFrame) return;
    const ms = shownAtMs - hit[1];
    if (ms < 0 || ms > MAX_BELIEVABLE_AGE_MS) return;
    this.ages.push({ ms, at: performance.now() });
    if (this.ages.length > AGE_SAMPLES) this.ages.shift();
  }

  /** The median age of the pictures shown in the last two seconds, whole ms; undefined for none. */
  medianMs(now: number): number | undefined {
    const age = medianOf(this.ages.filter((a) => now - a.at <= RECENT_MS).map((a) => a.ms));
    return age === undefined ? undefined : Math.round(age);
  }

  /** A new timeline (an init segment): the producer times noted no longer match the media times. */
  newTimeline(): void {
    this.produced.length = 0;
  }

  reset(): void {
    this.produced.length = 0;
    this.ages.length = 0;
  }
}

/** The part of a <video> that watchComposited uses. */
export type CompositedVideo = Pick<HTMLVideoElement, 'requestVideoFrameCallback'>;

/**
 * Calls `shown` with the media time (seconds) of each frame the <video> composites and the time it
 * went on screen (epoch ms) — where a picture's age ends — for as long as `keep()` says. False
 * (nothing watched) where the browser has no requestVideoFrameCallback. The time is the rendering
 * step's (the callback's `now`, as wall clock): the same for every frame callback of that step,
 * whatever work the page's other callbacks did before this one ran.
 */
export function watchComposited(video: CompositedVideo, keep: () => boolean, shown: (mediaTime: number, shownAtMs: number) => void): boolean {
  if (typeof video.requestVideoFrameCallback !== 'function') return false;
  const onFrame = (now: number, meta: VideoFrameCallbackMetadata): void => {
    if (!keep()) return;
    shown(meta.mediaTime, stepWallClockMs(now));
    video.requestVideoFrameCallback(onFrame);
  };
  video.requestVideoFrameCallback(onFrame);
  return true;
}

/**
 * A frame callback's rendering step (its `now`, performance time) as wall clock, epoch ms: the
 * same for every frame callback of that step, however long the ones before it took.
 */
export function stepWallClockMs(step: number): number {
  return Date.now() - Math.max(0, performance.now() - step);
}
