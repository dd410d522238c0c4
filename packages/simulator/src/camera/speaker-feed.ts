/**
 * The ship's speaker as the synthetic camera hears it: whoever plays sound on the ship (the
 * talkback, decoding the operator's voice) pushes PCM — signed 16-bit little-endian, mono, 16 kHz —
 * into the camera's SpeakerFeed, and every live stream of that camera with sound on mixes it into
 * its sound track (ffmpeg input `pipe:4`, amix). The operator hears their own voice come back from
 * the ship, delayed by the link.
 *
 * ffmpeg must never wait for this input (its main loop would hold the pictures too), so each
 * stream's pump writes in real time whether anyone talks or not: the samples due by the wall clock
 * (plus a small lead written at the start), taken from what was pushed, silence for the rest.
 * Pushed sound a stream has not played yet is bounded (MAX_QUEUED_SECONDS: the oldest goes).
 */

export const SPEAKER_SAMPLE_RATE = 16_000;
/** Silence written ahead when a pump starts, so ffmpeg's reading never catches up with the writing. */
const LEAD_MS = 200;
const TICK_MS = 20;
const MAX_QUEUED_SECONDS = 10;

/** Where a pump writes (the encoder's fd 4). False: the pipe is full (the bytes are still queued). */
export type PcmSink = (chunk: Buffer) => boolean;

export interface SpeakerPump {
  /** Stops writing. */
  stop(): void;
  /** Samples written so far (talk and silence). */
  readonly samplesWritten: number;
}

interface Listener {
  queue: Int16Array[];
  queued: number;
}

export class SpeakerFeed {
  private readonly listeners = new Set<Listener>();

  constructor(readonly cameraId: string) {}

  /** Live streams currently mixing this feed in (0: pushed sound goes nowhere). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Plays PCM on the speaker: s16 mono at SPEAKER_SAMPLE_RATE, appended after what is still playing. */
  push(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    const max = MAX_QUEUED_SECONDS * SPEAKER_SAMPLE_RATE;
    for (const l of this.listeners) {
      l.queue.push(pcm.slice());
      l.queued += pcm.length;
      while (l.queued > max && l.queue.length > 1) l.queued -= (l.queue.shift() as Int16Array).length;
    }
  }

  /**
   * Starts writing this feed to `sink` in real time (a live stream's encoder), until stop().
   * `now` is replaceable for tests; the timer runs every 20 ms.
   */
  pump(sink: PcmSink, now: () => number = () => performance.now()): SpeakerPump {
    const listener: Listener = { queue: [], queued: 0 };
    this.listeners.add(listener);
    const start = now();
    const lead = Math.round((LEAD_MS / 1000) * SPEAKER_SAMPLE_RATE);
    let written = 0;
    const tick = () => {
      const due = lead + Math.floor(((now() - start) / 1000) * SPEAKER_SAMPLE_RATE);
      if (due <= written) return;
      sink(take(listener, due - written));
      written = due;
    };
    tick();
    const timer = setInterval(tick, TICK_MS);
    timer.unref();
    return {
      stop: () => {
        clearInterval(timer);
        this.listeners.delete(listener);
      },
      get samplesWritten() {
        return written;
      },
    };
  }
}

/** `n` samples as s16le bytes: pushed sound first, silence after it. */
function take(l: Listener, n: number): Buffer {
  const out = Buffer.alloc(n * 2);
  let at = 0;
  while (at < n && l.queue.length > 0) {
    const head = l.queue[0] as Int16Array;
    const count = Math.min(head.length, n - at);
    for (let i = 0; i < count; i++) out.writeInt16LE(head[i] as number, (at + i) * 2);
    at += count;
    l.queued -= count;
    if (count === head.length) l.queue.shift();
    else l.queue[0] = head.subarray(count);
  }
  return out;
}

/** The ship's speaker feeds, one per camera, made on first use. */
export class SpeakerFeeds {
  private readonly feeds = new Map<string, SpeakerFeed>();

  /** The feed of a camera (the same object every time). */
  get(cameraId: string): SpeakerFeed {
    let feed = this.feeds.get(cameraId);
    if (!feed) {
      feed = new SpeakerFeed(cameraId);
      this.feeds.set(cameraId, feed);
    }
    return feed;
  }
}
