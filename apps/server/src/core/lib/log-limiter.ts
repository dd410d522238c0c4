import type { FastifyBaseLogger } from 'fastify';

export interface LogLimiterOptions {
  /** Lines logged per key in each window; the rest are counted. Default 10. */
  perWindow?: number;
  /** Default one minute. */
  windowMs?: number;
  now?: () => number;
}

interface Window {
  start: number;
  logged: number;
  suppressed: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Warnings about what one sender did (a ship's malformed or misdirected messages), bounded per
 * sender: the first `perWindow` in a window are logged as they come, the rest only counted, and
 * at the window's end one line says how many were left out. One ship sending thousands of bad
 * messages thus costs the log a dozen lines a minute, and other ships' warnings stay visible.
 */
export class LogLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly perWindow: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly log: FastifyBaseLogger,
    opts: LogLimiterOptions = {},
  ) {
    this.perWindow = opts.perWindow ?? 10;
    this.windowMs = opts.windowMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** Logs `msg` at WARN for `key` (with `key` in the line as `field`), unless its window's share is spent. */
  warn(field: string, key: string, obj: object, msg: string): void {
    const now = this.now();
    let w = this.windows.get(key);
    if (w && now - w.start >= this.windowMs && w.suppressed === 0) {
      this.windows.delete(key);
      w = undefined;
    }
    if (!w) {
      w = { start: now, logged: 0, suppressed: 0, timer: undefined };
      this.windows.set(key, w);
    }
    if (w.logged < this.perWindow) {
      w.logged++;
      this.log.warn({ ...obj, [field]: key }, msg);
      return;
    }
    w.suppressed++;
    if (!w.timer) {
      const window = w;
      window.timer = setTimeout(() => this.flush(field, key, window), Math.max(0, window.start + this.windowMs - now));
      window.timer.unref();
    }
  }

  /** Says what was left out now (shutdown); forgets every window. */
  close(): void {
    for (const w of this.windows.values()) clearTimeout(w.timer);
    this.windows.clear();
  }

  private flush(field: string, key: string, w: Window): void {
    if (this.windows.get(key) === w) this.windows.delete(key);
    this.log.warn({ [field]: key, suppressed: w.suppressed, windowMs: this.windowMs }, `${w.suppressed} more warnings like the above left out of the log`);
  }
}
