/**
 * StreamRegistry: the live sources that exist, keyed by what makes them shareable.
 *
 * Why it exists: N viewers of one (camera, definition) must cost the ship ONE uplink stream, and an
 * unwatched ship must send no video. The registry counts holders per key: the first `acquire`
 * starts the source, later ones share it; when the last holder releases, the source stops after a
 * short linger, so a viewer who reloads the page or flips back to the camera within seconds does
 * not pay a stop/start round trip over a 600 ms satellite link (and a slow encoder start).
 *
 * It is pure: what "start" and "stop" mean (asking the ship's agent) is the caller's `start`
 * function and the source's `stop()`. Timers are injectable.
 */

/** A running source; `stop()` is called once, when it is no longer wanted. */
export interface Source {
  stop(): void;
}

/** The timer functions the registry uses (Node's globals by default; fake ones in tests). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface StreamRegistryOptions<K> {
  /** How long a source with no holders keeps running. Default 10 s; 0 stops at once. */
  lingerMs?: number;
  timers?: Timers;
  /**
   * Map a key to the identity used for sharing (default: the key itself, fine for strings). An
   * object key such as `{ cameraId, templateId }` needs e.g. `(k) => `${k.cameraId}#${k.templateId}``.
   */
  identity?: (key: K) => unknown;
  /**
   * Called when a source's `stop()` throws. Without it the error propagates — from a linger timer
   * that is an uncaught exception, so the wiring should pass a logger here.
   */
  onStopError?: (error: unknown, key: K) => void;
}

export interface RegistryEntry<K, S extends Source> {
  key: K;
  source: S;
  holders: number;
  /** No holders; the source stops when the linger ends unless acquired again. */
  lingering: boolean;
}

/** A holder's claim on a source; `release()` is idempotent and bound to this very source. */
export interface Lease<S extends Source> {
  readonly source: S;
  /** `linger: false`: stop the source at once if this was its last holder (no linger). */
  release(opts?: { linger?: boolean }): void;
}

const defaultTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface Slot<K, S extends Source> {
  key: K;
  source: S;
  holders: number;
  timer: unknown;
  lingering: boolean;
}

export class StreamRegistry<K, S extends Source = Source> {
  private readonly slots = new Map<unknown, Slot<K, S>>();
  private readonly lingerMs: number;
  private readonly timers: Timers;
  private readonly identity: (key: K) => unknown;
  private readonly onStopError: ((error: unknown, key: K) => void) | undefined;

  constructor(options: StreamRegistryOptions<K> = {}) {
    this.lingerMs = options.lingerMs ?? 10_000;
    this.timers = options.timers ?? defaultTimers;
    this.identity = options.identity ?? ((k) => k);
    this.onStopError = options.onStopError;
  }

  /**
   * The running source for `key`, or a new one from `start()` (called only when none runs; if it
   * throws nothing is registered). Counts one holder; pair each call with one `release(key)`.
   */
  acquire(key: K, start: () => S): S {
    return this.acquireSlot(key, start).source;
  }

  /** `acquire` returning a lease whose `release()` is safe to call twice or after an `evict`. */
  lease(key: K, start: () => S): Lease<S> {
    const slot = this.acquireSlot(key, start);
    let released = false;
    return {
      source: slot.source,
      release: (opts) => {
        if (released) return;
        released = true;
        if (this.slots.get(this.identity(key)) === slot) this.releaseSlot(slot, opts?.linger ?? true);
      },
    };
  }

  /** Drop one holder of `key`. Returns false if the key has no holder (nothing changed). */
  release(key: K): boolean {
    const slot = this.slots.get(this.identity(key));
    if (!slot || slot.holders === 0) return false;
    this.releaseSlot(slot);
    return true;
  }

  get(key: K): S | undefined {
    return this.slots.get(this.identity(key))?.source;
  }

  /**
   * Forget `key` at once, holders or not: the source ended by itself (the ship reported it), so
   * the next `acquire` starts a new one. Calls `stop()` only if `stop` is true. Leases of the
   * forgotten source become no-ops.
   */
  evict(key: K, options: { stop?: boolean } = {}): S | undefined {
    const slot = this.slots.get(this.identity(key));
    if (!slot) return undefined;
    this.forget(slot);
    if (options.stop) this.stopSource(slot);
    return slot.source;
  }

  entries(): RegistryEntry<K, S>[] {
    return [...this.slots.values()].map((s) => ({ key: s.key, source: s.source, holders: s.holders, lingering: s.lingering }));
  }

  get size(): number {
    return this.slots.size;
  }

  /** Stop every source now (shutdown), lingering or held. */
  stopAll(): void {
    const all = [...this.slots.values()];
    for (const slot of all) this.forget(slot);
    let firstError: { error: unknown } | undefined;
    for (const slot of all) {
      try {
        this.stopSource(slot);
      } catch (error) {
        firstError ??= { error }; // stop the rest before reporting
      }
    }
    if (firstError) throw firstError.error;
  }

  // -------------------------------------------------------------------------------------------

  private acquireSlot(key: K, start: () => S): Slot<K, S> {
    const id = this.identity(key);
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { key, source: start(), holders: 0, timer: undefined, lingering: false };
      this.slots.set(id, slot);
    }
    if (slot.lingering) {
      this.timers.clearTimeout(slot.timer);
      slot.timer = undefined;
      slot.lingering = false;
    }
    slot.holders++;
    return slot;
  }

  private releaseSlot(slot: Slot<K, S>, linger = true): void {
    slot.holders--;
    if (slot.holders > 0) return;
    if (this.lingerMs <= 0 || !linger) {
      this.forget(slot);
      this.stopSource(slot);
      return;
    }
    slot.lingering = true;
    slot.timer = this.timers.setTimeout(() => {
      if (this.slots.get(this.identity(slot.key)) !== slot || !slot.lingering) return;
      this.forget(slot);
      this.stopSource(slot);
    }, this.lingerMs);
  }

  private forget(slot: Slot<K, S>): void {
    if (slot.lingering) this.timers.clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.lingering = false;
    const id = this.identity(slot.key);
    if (this.slots.get(id) === slot) this.slots.delete(id);
  }

  private stopSource(slot: Slot<K, S>): void {
    try {
      slot.source.stop();
    } catch (error) {
      if (!this.onStopError) throw error;
      this.onStopError(error, slot.key);
    }
  }
}
