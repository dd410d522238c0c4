import { PTZ_MOVE_TIMEOUT_MS } from '@ship-cctv/protocol';
import type { PtzSpeeds } from './api/ptz.ts';

export interface HoldLink {
  move(speeds: PtzSpeeds, timeoutMs: number): Promise<unknown>;
  stop(): Promise<unknown>;
  /** A command failed: the hold ends (no more repeats). */
  failed(err: unknown): void;
}

export interface HoldTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const browserTimers: HoldTimers = {
  setInterval: (fn, ms) => window.setInterval(fn, ms),
  clearInterval: (h) => window.clearInterval(h as number),
};

/**
 * Press-and-hold of a PTZ control: a press sends a move at once and repeats it every half of its
 * time-out while held (the camera stops by itself if the browser or the link goes away); release
 * sends a stop. Pressing another control while one is held switches to it (one move, no stop in
 * between). A failed command ends the hold.
 */
export class PtzHold {
  private timer: unknown;
  private held: PtzSpeeds | undefined;

  constructor(
    private readonly link: HoldLink,
    private readonly timeoutMs = PTZ_MOVE_TIMEOUT_MS,
    private readonly timers: HoldTimers = browserTimers,
  ) {}

  get holding(): boolean {
    return this.held !== undefined;
  }

  press(speeds: PtzSpeeds): void {
    this.clear();
    this.held = speeds;
    this.send();
    this.timer = this.timers.setInterval(() => this.send(), this.timeoutMs / 2);
  }

  /** Release, pointer leave, blur, unmount: a stop only if something was held. */
  release(): void {
    if (!this.held) return;
    this.clear();
    this.held = undefined;
    this.link.stop().catch((err: unknown) => this.link.failed(err));
  }

  private send(): void {
    const speeds = this.held;
    if (!speeds) return;
    this.link.move(speeds, this.timeoutMs).catch((err: unknown) => {
      if (this.held !== speeds) return;
      this.clear();
      this.held = undefined;
      this.link.failed(err);
    });
  }

  private clear(): void {
    if (this.timer !== undefined) this.timers.clearInterval(this.timer);
    this.timer = undefined;
  }
}
