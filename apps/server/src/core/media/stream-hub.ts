/**
 * StreamHub: one live source fanned out to many consumers.
 *
 * Why it exists: the ship's uplink is the scarcest resource, so N viewers of a (camera, definition)
 * share ONE uplink stream. The hub takes that stream's init segment and media fragments and hands
 * them to every viewer, so that
 *  - a viewer joining mid-stream starts at once: it gets the init and the GOP cached since the last
 *    keyframe, so its decoder begins on a keyframe;
 *  - a slow viewer never holds up the others nor grows server memory: the hub never queues per
 *    consumer. It looks at the consumer's own send buffer (a WebSocket's bufferedAmount), and when
 *    that is over a high-water mark it stops sending and later resumes at a keyframe ("skip to the
 *    next keyframe"); past a hard limit, or stuck for too long, the consumer is dropped;
 *  - a new init (definition change) reaches every viewer before any fragment of the new stream.
 *
 * It is pure: bytes and plain objects in, `send`/`drop` calls out; no sockets, no timers (time is
 * read from an injectable clock when fragments arrive). It knows nothing of JSON events: the
 * `unit` argument of `send` tells the wiring what is being sent so it can put its own `codec` or
 * `status` message in front.
 */

/** What the hub needs of an init segment (the splitter's `InitSegment` fits). */
export interface HubInit {
  data: Uint8Array;
  /** Ticks per second of fragment durations. */
  timescale: number;
}

/** What the hub needs of a media fragment (the splitter's `MediaFragment` fits). */
export interface HubFragment {
  data: Uint8Array;
  keyframe: boolean;
  /** In the init's timescale ticks; 0 if unknown (then only byte marks apply). */
  duration: number;
}

export type SentUnit<I extends HubInit = HubInit, F extends HubFragment = HubFragment> =
  | { kind: 'init'; init: I }
  | { kind: 'fragment'; fragment: F };

/**
 * One viewer. The wiring wraps a WebSocket: `send` → `ws.send(data)`, `bufferedAmount` →
 * `ws.bufferedAmount`, `drop` → send an error/status and close. The hub calls these synchronously;
 * `send` must not block. After `drop` the hub has already forgotten the consumer.
 */
export interface MediaConsumer<I extends HubInit = HubInit, F extends HubFragment = HubFragment> {
  send(data: Uint8Array, unit: SentUnit<I, F>): void;
  bufferedAmount(): number;
  drop(reason: string): void;
}

/** Alias for wiring code that names it by role. */
export type StreamConsumer<I extends HubInit = HubInit, F extends HubFragment = HubFragment> = MediaConsumer<I, F>;

export interface StreamHubOptions {
  /** Bound on the GOP cache. A GOP that grows past it is not cached (joiners wait for the next keyframe). Default 2 MiB. */
  gopCacheBytes?: number;
  /** A consumer with more than this buffered is skipped to the next keyframe. Default 2 MiB. */
  highWaterBytes?: number;
  /**
   * The same mark in seconds of video at the stream's measured byte rate: on a 0.4 Mbit/s ship
   * stream 2 MiB is 40 s behind live, far too late for CCTV. Default 8 s.
   */
  highWaterSeconds?: number;
  /** A skipped consumer resumes (at a keyframe) only once drained to this. Default 512 KiB. */
  lowWaterBytes?: number;
  /** The low mark in seconds of video. Default 2 s. */
  lowWaterSeconds?: number;
  /** A consumer over this is dropped at once. Default 8 MiB. */
  hardLimitBytes?: number;
  /** A skipped consumer that has not drained to the low mark within this is dropped. Default 30 s. */
  maxStallMs?: number;
  /** Clock for the stall bound. Default `Date.now`. */
  now?: () => number;
}

const MiB = 1024 * 1024;

export const HUB_DEFAULTS: Required<Omit<StreamHubOptions, 'now'>> = {
  gopCacheBytes: 2 * MiB,
  highWaterBytes: 2 * MiB,
  highWaterSeconds: 8,
  lowWaterBytes: 512 * 1024,
  lowWaterSeconds: 2,
  hardLimitBytes: 8 * MiB,
  maxStallMs: 30_000,
};

/**
 * live: receives every fragment. waiting: needs a keyframe before it can continue (joined when no
 * GOP was cached, or the definition changed). behind: skipped for being slow; resumes at a keyframe
 * once drained to the low mark.
 */
export type ConsumerState = 'live' | 'waiting' | 'behind';

export interface ConsumerStats {
  state: ConsumerState;
  sentFragments: number;
  sentBytes: number;
  skippedFragments: number;
  /** Times it fell behind and was skipped to a keyframe. */
  skips: number;
}

export interface HubStats {
  bytesIn: number;
  fragmentsIn: number;
  keyframes: number;
  inits: number;
  consumers: number;
  /** Consumers the hub dropped (slow or failing), since the start. */
  drops: number;
  /** Fragments not sent to some consumer because it was behind or waiting, summed over consumers. */
  skippedFragments: number;
  gopCache: { bytes: number; fragments: number; valid: boolean };
  /** Measured bytes per second of video (last complete GOP + the current one), if known. */
  byteRate: number | undefined;
}

export interface HubEvents<I extends HubInit, F extends HubFragment> {
  /** The last consumer left (removed or dropped). */
  empty: [];
  /** The number of consumers changed. */
  count: [count: number];
  /** The hub dropped a consumer (after calling its `drop`). */
  drop: [consumer: MediaConsumer<I, F>, reason: string];
}

interface ConsumerEntry<I extends HubInit, F extends HubFragment> {
  consumer: MediaConsumer<I, F>;
  state: ConsumerState;
  /** The current init has not been sent to it yet. */
  needInit: boolean;
  /** Since when it has been behind and not drained to the low mark. */
  behindSince: number | undefined;
  stats: ConsumerStats;
}

export class StreamHub<I extends HubInit = HubInit, F extends HubFragment = HubFragment> {
  private readonly opts: Required<Omit<StreamHubOptions, 'now'>>;
  private readonly now: () => number;
  private readonly entries = new Map<MediaConsumer<I, F>, ConsumerEntry<I, F>>();
  private readonly listeners: { [E in keyof HubEvents<I, F>]: Set<(...args: HubEvents<I, F>[E]) => void> } = {
    empty: new Set(),
    count: new Set(),
    drop: new Set(),
  };

  private currentInit: I | undefined;
  /** Fragments since the last keyframe (the first is that keyframe) while `cacheValid`. */
  private cache: F[] = [];
  private cacheBytes = 0;
  private cacheValid = false;
  /** Byte-rate measurement: the last complete GOP and the one in progress (bytes, seconds). */
  private lastGop: { bytes: number; seconds: number } | undefined;
  private curGop = { bytes: 0, seconds: 0 };

  private counters = { bytesIn: 0, fragmentsIn: 0, keyframes: 0, inits: 0, drops: 0, skippedFragments: 0 };

  constructor(options: StreamHubOptions = {}) {
    const { now, ...rest } = options;
    const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    this.opts = { ...HUB_DEFAULTS, ...defined };
    this.now = now ?? Date.now;
    if (this.opts.lowWaterBytes > this.opts.highWaterBytes || this.opts.highWaterBytes > this.opts.hardLimitBytes) {
      throw new RangeError('StreamHub marks must satisfy lowWaterBytes ≤ highWaterBytes ≤ hardLimitBytes');
    }
  }

  /** The init segment consumers are (or will be) on. */
  get init(): I | undefined {
    return this.currentInit;
  }

  get consumerCount(): number {
    return this.entries.size;
  }

  consumers(): MediaConsumer<I, F>[] {
    return [...this.entries.keys()];
  }

  on<E extends keyof HubEvents<I, F>>(event: E, listener: (...args: HubEvents<I, F>[E]) => void): () => void {
    const set = this.listeners[event] as Set<(...args: HubEvents<I, F>[E]) => void>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * A new init segment: the first one, or a definition change. Every consumer gets it next, then
   * fragments from the next keyframe; the GOP cache of the old definition is discarded.
   */
  setInit(init: I): void {
    this.currentInit = init;
    this.counters.inits++;
    this.clearCache();
    this.lastGop = undefined;
    this.curGop = { bytes: 0, seconds: 0 };
    for (const entry of [...this.entries.values()]) {
      if (!this.isCurrent(entry)) continue;
      entry.needInit = true;
      if (entry.state === 'live') entry.state = 'waiting';
      const buffered = entry.consumer.bufferedAmount();
      if (buffered > this.opts.hardLimitBytes) {
        this.dropEntry(entry, `slow consumer: ${buffered} bytes buffered, over the hard limit`);
        continue;
      }
      // A consumer already behind gets the init when it resumes; the rest get it now.
      if (entry.state === 'waiting') this.sendInit(entry);
    }
  }

  /**
   * The source ended or restarts: forget the init and the cache. Consumers stay and will get the
   * next init, then fragments from its first keyframe.
   */
  reset(): void {
    this.currentInit = undefined;
    this.clearCache();
    this.lastGop = undefined;
    this.curGop = { bytes: 0, seconds: 0 };
    for (const entry of this.entries.values()) {
      entry.needInit = true;
      if (entry.state === 'live') entry.state = 'waiting';
    }
  }

  pushFragment(fragment: F): void {
    const init = this.currentInit;
    if (!init) throw new Error('StreamHub.pushFragment before setInit');
    const size = fragment.data.length;
    this.counters.bytesIn += size;
    this.counters.fragmentsIn++;
    this.measure(fragment, init);

    if (fragment.keyframe) {
      this.counters.keyframes++;
      this.clearCache();
      this.cacheValid = true;
    }
    if (this.cacheValid) {
      if (this.cacheBytes + size > this.opts.gopCacheBytes) {
        this.clearCache(); // until the next keyframe: never hold more than the bound
      } else {
        this.cache.push(fragment);
        this.cacheBytes += size;
      }
    }

    const now = this.now();
    for (const entry of [...this.entries.values()]) {
      // Removed (or removed and re-added, with a fresh entry) by an earlier consumer's callback.
      if (!this.isCurrent(entry)) continue;
      this.deliver(entry, fragment, now);
    }
  }

  /**
   * Add a viewer. It gets the init and the cached GOP at once (synchronously, inside this call), or
   * waits for the first keyframe if nothing is cached.
   */
  addConsumer(consumer: MediaConsumer<I, F>): void {
    if (this.entries.has(consumer)) return;
    const entry: ConsumerEntry<I, F> = {
      consumer,
      state: 'waiting',
      needInit: true,
      behindSince: undefined,
      stats: { state: 'waiting', sentFragments: 0, sentBytes: 0, skippedFragments: 0, skips: 0 },
    };
    this.entries.set(consumer, entry);
    this.emit('count', this.entries.size);
    if (!this.currentInit) return;
    if (!this.sendInit(entry)) return;
    if (this.cacheValid && this.cache.length > 0) {
      entry.state = 'live';
      for (const f of this.cache) {
        if (!this.sendFragment(entry, f)) return;
      }
    }
  }

  /** Remove a viewer (its socket closed). Returns false if it was not here (e.g. already dropped). */
  removeConsumer(consumer: MediaConsumer<I, F>): boolean {
    if (!this.entries.delete(consumer)) return false;
    this.afterLeave();
    return true;
  }

  /** Drop every consumer with the reason (the source is gone for good). */
  dropAll(reason: string): void {
    for (const entry of [...this.entries.values()]) {
      if (this.isCurrent(entry)) this.dropEntry(entry, reason);
    }
  }

  consumerStats(consumer: MediaConsumer<I, F>): ConsumerStats | undefined {
    const entry = this.entries.get(consumer);
    return entry ? { ...entry.stats, state: entry.state } : undefined;
  }

  stats(): HubStats {
    return {
      ...this.counters,
      consumers: this.entries.size,
      gopCache: { bytes: this.cacheBytes, fragments: this.cache.length, valid: this.cacheValid },
      byteRate: this.byteRate(),
    };
  }

  // -------------------------------------------------------------------------------------------

  private deliver(entry: ConsumerEntry<I, F>, fragment: F, now: number): void {
    const buffered = entry.consumer.bufferedAmount();
    if (buffered > this.opts.hardLimitBytes) {
      this.dropEntry(entry, `slow consumer: ${buffered} bytes buffered, over the hard limit`);
      return;
    }
    if (entry.state === 'live') {
      if (buffered > this.highWater()) {
        entry.state = 'behind';
        entry.behindSince = now;
        entry.stats.skips++;
        this.skip(entry);
        return;
      }
      this.sendFragment(entry, fragment);
      return;
    }

    // waiting or behind: only a keyframe can start it again, and only once it has room.
    const limit = entry.state === 'behind' ? this.lowWater() : this.highWater();
    const drained = buffered <= limit;
    if (entry.state === 'behind') {
      if (drained) entry.behindSince = undefined;
      else if (entry.behindSince === undefined) entry.behindSince = now;
      else if (now - entry.behindSince > this.opts.maxStallMs) {
        this.dropEntry(entry, `slow consumer: still ${buffered} bytes buffered after ${this.opts.maxStallMs} ms`);
        return;
      }
    }
    if (!fragment.keyframe || !drained) {
      this.skip(entry);
      return;
    }
    if (entry.needInit && !this.sendInit(entry)) return;
    entry.state = 'live';
    entry.behindSince = undefined;
    this.sendFragment(entry, fragment);
  }

  private skip(entry: ConsumerEntry<I, F>): void {
    entry.stats.skippedFragments++;
    this.counters.skippedFragments++;
  }

  /** Returns false if sending failed and the consumer was dropped. */
  private sendInit(entry: ConsumerEntry<I, F>): boolean {
    const init = this.currentInit;
    if (!init) return true;
    if (!this.safeSend(entry, init.data, { kind: 'init', init })) return false;
    entry.needInit = false;
    return true;
  }

  private sendFragment(entry: ConsumerEntry<I, F>, fragment: F): boolean {
    if (!this.safeSend(entry, fragment.data, { kind: 'fragment', fragment })) return false;
    entry.stats.sentFragments++;
    entry.stats.sentBytes += fragment.data.length;
    return true;
  }

  /** A consumer whose send throws (socket already closed) is dropped; the others carry on. */
  private safeSend(entry: ConsumerEntry<I, F>, data: Uint8Array, unit: SentUnit<I, F>): boolean {
    try {
      entry.consumer.send(data, unit);
      return this.isCurrent(entry);
    } catch (err) {
      if (this.isCurrent(entry)) {
        this.dropEntry(entry, `send failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      return false;
    }
  }

  private isCurrent(entry: ConsumerEntry<I, F>): boolean {
    return this.entries.get(entry.consumer) === entry;
  }

  private dropEntry(entry: ConsumerEntry<I, F>, reason: string): void {
    if (!this.isCurrent(entry)) return;
    this.entries.delete(entry.consumer);
    this.counters.drops++;
    try {
      entry.consumer.drop(reason);
    } finally {
      this.emit('drop', entry.consumer, reason);
      this.afterLeave();
    }
  }

  private afterLeave(): void {
    this.emit('count', this.entries.size);
    if (this.entries.size === 0) this.emit('empty');
  }

  private emit<E extends keyof HubEvents<I, F>>(event: E, ...args: HubEvents<I, F>[E]): void {
    const set = this.listeners[event] as Set<(...a: HubEvents<I, F>[E]) => void>;
    for (const l of [...set]) l(...args);
  }

  private clearCache(): void {
    this.cache = [];
    this.cacheBytes = 0;
    this.cacheValid = false;
  }

  private measure(fragment: F, init: I): void {
    if (fragment.keyframe && this.curGop.seconds > 0) {
      this.lastGop = this.curGop;
      this.curGop = { bytes: 0, seconds: 0 };
    }
    this.curGop.bytes += fragment.data.length;
    if (init.timescale > 0) this.curGop.seconds += fragment.duration / init.timescale;
  }

  private byteRate(): number | undefined {
    const bytes = (this.lastGop?.bytes ?? 0) + this.curGop.bytes;
    const seconds = (this.lastGop?.seconds ?? 0) + this.curGop.seconds;
    // Less than half a second of video says little about the rate (a lone keyframe would dominate).
    return seconds >= 0.5 ? bytes / seconds : undefined;
  }

  private highWater(): number {
    const rate = this.byteRate();
    const bySeconds = rate === undefined ? Infinity : rate * this.opts.highWaterSeconds;
    return Math.min(this.opts.highWaterBytes, bySeconds);
  }

  private lowWater(): number {
    const rate = this.byteRate();
    const bySeconds = rate === undefined ? Infinity : rate * this.opts.lowWaterSeconds;
    return Math.min(this.opts.lowWaterBytes, bySeconds);
  }
}
