import type { Readable } from 'node:stream';

/**
 * Where recordings, clips and pictures keep their bytes: one interface, the local filesystem for a
 * single instance and NATS JetStream's object store for a cluster. Keys are relative, `/`-separated
 * names such as `recordings/<camera>/<segment>.mp4`; see `checkKey`.
 */
export interface ObjectStore {
  /** Which backend this is, for logs and metrics. */
  readonly kind: 'local' | 'nats';
  /** Stores `data` under `key`, replacing what was there; readers see the old or the new object whole. */
  put(key: string, data: Uint8Array | Readable | AsyncIterable<Uint8Array>): Promise<ObjectStat>;
  /** The whole object. Throws `ObjectNotFoundError` when there is none. */
  get(key: string): Promise<Buffer>;
  /**
   * The bytes `start`..`end` inclusive (as an HTTP Range), `end` clamped to the last byte; the whole
   * object without a range. Throws `ObjectNotFoundError` when there is none, `RangeError` when
   * `start` lies past the end.
   */
  read(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  /** Size and modification time, or undefined when there is no such object. */
  stat(key: string): Promise<ObjectStat | undefined>;
  /** Every object whose key starts with `prefix`, sorted by key. */
  list(prefix: string): Promise<ObjectStat[]>;
  /** Removes the object; true when there was one. */
  delete(key: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface ObjectStat {
  key: string;
  size: number;
  mtimeMs: number;
}

export class ObjectNotFoundError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`no object "${key}" in the store`);
    this.name = 'ObjectNotFoundError';
  }
}

/** A key is 1–255 path segments of letters, digits, `.`, `_`, `-`; no `..`, no leading `/`. */
export function checkKey(key: string): string {
  const segments = key.split('/');
  const ok = key.length > 0 && key.length <= 1024 && segments.every((s) => /^[A-Za-z0-9._-]+$/.test(s) && s !== '.' && s !== '..');
  if (!ok) throw new Error(`invalid object key "${key}"`);
  return key;
}

/** Clamps a requested range to an object of `size` bytes (inclusive end). */
export function clampRange(key: string, size: number, range?: { start: number; end?: number }): { start: number; end: number } {
  const start = range?.start ?? 0;
  const end = Math.min(range?.end ?? size - 1, size - 1);
  if (!Number.isInteger(start) || start < 0 || (size > 0 && start >= size) || (range?.end !== undefined && range.end < start)) {
    throw new RangeError(`range ${start}-${range?.end ?? ''} is outside "${key}" (${size} bytes)`);
  }
  return { start, end };
}
