/**
 * A camera's frame rate, from the stamps of its last pictures: how many came over the time they
 * span. Jitter in the stamps (a camera that stamps pictures as they arrive, on a busy machine: 60
 * and 140 ms between pictures of a 10 fps camera) cancels out over the span, and only its ends
 * count: ±10 ms over 5 s is 0.4 %. A running average of each gap between two pictures follows the
 * jitter instead (±40 ms reads a 10 fps camera above 10.2 fps now and then), and a camera at the
 * template's very rate was then re-encoded for the whole stream, a picture in five thinned out.
 */

/** Stamps kept: 5 s at 10 fps, 2 s at 25 fps. */
const KEPT = 50;
/** The least span measured over, ms: over less, the ends' jitter weighs too much (±10 ms over 200 ms is 10 %). */
const LEAST_SPAN_MS = 1_000;

export class FrameRateMeter {
  private readonly stamps: number[] = [];

  /** A picture stamped `ms` (any clock that runs on with the camera's; B-frames: out of order). */
  note(ms: number): void {
    this.stamps.push(ms);
    if (this.stamps.length > KEPT) this.stamps.shift();
  }

  /** The camera's stamps start elsewhere (a jump in its clock, another stream): measured afresh. */
  restart(): void {
    this.stamps.length = 0;
  }

  /** Pictures per second over the stamps kept; undefined until they span a second. */
  rate(): number | undefined {
    if (this.stamps.length < 2) return undefined;
    const span = Math.max(...this.stamps) - Math.min(...this.stamps);
    return span >= LEAST_SPAN_MS ? ((this.stamps.length - 1) * 1000) / span : undefined;
  }
}
