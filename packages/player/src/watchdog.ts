export type StallVerdict = 'ok' | 'stalled' | 'reconnect' | 'frozen';

/** A picture that stood still this many stall timeouts while bytes kept coming: its element is stuck. */
const FROZEN_STALL_TIMEOUTS = 2;

export interface StallInput {
  now: number;
  /** Last time currentTime moved. */
  lastProgressAt: number;
  /** Last time bytes arrived. */
  lastBytesAt: number;
  stallTimeoutMs: number;
  silenceReconnectMs: number;
}

/**
 * Stalled when the picture froze or the bytes stopped for stallTimeoutMs; after a longer silence
 * the socket is probably dead without having closed (satellite links drop without a FIN), so
 * reconnect. `frozen`: the picture stood still for twice the stall timeout while bytes kept
 * coming — not the link but what paints them is stuck (a media element whose seek never
 * completed), and only a fresh one plays again.
 */
export function stallVerdict(i: StallInput): StallVerdict {
  const silentFor = i.now - i.lastBytesAt;
  const stillFor = i.now - i.lastProgressAt;
  if (silentFor >= i.silenceReconnectMs) return 'reconnect';
  if (silentFor < i.stallTimeoutMs && stillFor >= FROZEN_STALL_TIMEOUTS * i.stallTimeoutMs) return 'frozen';
  if (silentFor >= i.stallTimeoutMs || stillFor >= i.stallTimeoutMs) return 'stalled';
  return 'ok';
}

/**
 * Rate of a growing counter (bytes, decoded frames) over a sliding window: samples older than the
 * window drop out, the rate is the difference between the oldest and newest sample over their time.
 */
export class SlidingRate {
  private readonly samples: Array<{ t: number; total: number }> = [];

  constructor(private readonly windowMs: number) {}

  add(t: number, total: number): void {
    this.samples.push({ t, total });
    while (this.samples.length > 2 && (this.samples[0]?.t ?? t) < t - this.windowMs) this.samples.shift();
  }

  /** Units per second; 0 until the window spans some time. */
  perSecond(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.t - first.t < 200) return 0;
    return ((last.total - first.total) * 1000) / (last.t - first.t);
  }

  reset(): void {
    this.samples.length = 0;
  }
}
