import { cameTogether, countedLateness, type Arrival } from './late-bunch.ts';

/**
 * How unevenly frames arrive, for a latency target that follows the link instead of a fixed
 * figure per link type. Each frame's arrival is noted as (wall clock − the frame's media time): on a
 * perfectly even stream that offset is constant; a frame that comes late has a larger one. The
 * allowance is how much later than the usual (median) frame the late ones come — a high quantile
 * over the last seconds — which is what the buffer must hold so that they still show on time.
 *
 * Rises at once when late frames come (they enter the window), falls as they leave it. The opening
 * of a stream does not count: its first second, and a bunch of frames that came together
 * (`late-bunch.ts`) still arriving then. A joining viewer gets the pictures since the last keyframe
 * at once, stamped a millisecond apart just before the live ones (the ship squeezes them so the
 * picture starts at the live edge): wall clock − media time is hundreds of ms higher for them than
 * for the live frames, and counted they held the target at 450–690 ms for up to 15 s of a new live
 * view. Nor does the window's worst bunch after that (a lone stall upstream is not waited for during
 * the next 20 s; a second one is). Media time and the wall clock are compared within one generation
 * only: a new encoder (definition change, reconnect) starts a new window.
 */

/** Arrivals kept: 20 s at 10 fps, 4 s at 50 fps. */
const WINDOW = 200;
/** The opening of a stream, ms from its first arrival: not counted (see above). */
const OPENING_MS = 1_000;
/** Arrivals needed before the allowance means anything. */
const MIN_SAMPLES = 30;
/** The share of frames that must arrive in time. */
const QUANTILE = 0.98;

export class ArrivalJitter {
  private readonly arrivals: Arrival[] = [];
  /** Arrivals of the generation's opening still in the window (at its front). */
  private opening = 0;
  /** When the generation's first frame came. */
  private firstWallMs: number | undefined;
  /** Whether the generation's arrivals so far are all of its opening. */
  private inOpening = true;

  /** A frame whose media ends at `mediaEndSec` was appended at `wallMs`. */
  note(wallMs: number, mediaEndSec: number): void {
    const mediaMs = mediaEndSec * 1000;
    this.arrivals.push({ wallMs, mediaMs, lateness: wallMs - mediaMs });
    if (this.inOpening) {
      this.firstWallMs ??= wallMs;
      if (wallMs - this.firstWallMs < OPENING_MS || cameTogether(this.arrivals.at(-2), this.arrivals.at(-1))) this.opening++;
      else this.inOpening = false;
    }
    if (this.arrivals.length > WINDOW) {
      this.arrivals.shift();
      if (this.opening > 0) this.opening--;
    }
  }

  /** A new generation or MediaSource: its media times start elsewhere. */
  restart(): void {
    this.arrivals.length = 0;
    this.opening = 0;
    this.firstWallMs = undefined;
    this.inOpening = true;
  }

  /** How much later than the median frame the latest 2 % come, ms; undefined until enough frames came (and one after the opening). */
  allowanceMs(): number | undefined {
    if (this.arrivals.length < MIN_SAMPLES || this.arrivals.length === this.opening) return undefined;
    const sorted = countedLateness(this.arrivals, this.opening, MIN_SAMPLES / 2).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return Math.max(0, at(QUANTILE) - at(0.5));
  }
}
