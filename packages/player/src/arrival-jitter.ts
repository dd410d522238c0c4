/**
 * How unevenly frames arrive, for a latency target that follows the link instead of a fixed
 * figure per link type. Each frame's arrival is noted as (wall clock − the frame's media time): on a
 * perfectly even stream that offset is constant; a frame that comes late has a larger one. The
 * allowance is how much later than the usual (median) frame the late ones come — a high quantile
 * over the last seconds — which is what the buffer must hold so that they still show on time.
 *
 * Rises at once when late frames come (they enter the window), falls as they leave it. Media time
 * and the wall clock are compared within one generation only: a new encoder (definition change,
 * reconnect) starts a new window.
 */

/** Arrivals kept: 20 s at 10 fps, 4 s at 50 fps. */
const WINDOW = 200;
/** Arrivals needed before the allowance means anything. */
const MIN_SAMPLES = 30;
/** The share of frames that must arrive in time. */
const QUANTILE = 0.98;

export class ArrivalJitter {
  private readonly offsets: number[] = [];

  /** A frame whose media ends at `mediaEndSec` was appended at `wallMs`. */
  note(wallMs: number, mediaEndSec: number): void {
    this.offsets.push(wallMs - mediaEndSec * 1000);
    if (this.offsets.length > WINDOW) this.offsets.shift();
  }

  /** A new generation or MediaSource: its media times start elsewhere. */
  restart(): void {
    this.offsets.length = 0;
  }

  /** How much later than the median frame the latest 2 % come, ms; undefined until enough frames came. */
  allowanceMs(): number | undefined {
    if (this.offsets.length < MIN_SAMPLES) return undefined;
    const sorted = [...this.offsets].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return Math.max(0, at(QUANTILE) - at(0.5));
  }
}
