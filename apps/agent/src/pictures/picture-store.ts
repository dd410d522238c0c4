import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cameraDirName } from '../cameras.ts';
import { PICTURE_LIST_MAX, type PictureMeta, type ShipPictureEntry } from '@ship-cctv/protocol';


export interface PictureStoreOptions {
  /** Pictures older than this are deleted (outbox or not). Default 30 days. */
  maxAgeMs?: number;
  /** All pictures together stay under this; the oldest go first. Default 2 GiB. */
  maxBytes?: number;
  now?: () => number;
}

export interface StoredPicture extends PictureMeta {
  thumbBytes: number;
}

/** What a shot gives the store: the picture and its thumbnail, both JPEG. */
export interface NewPicture {
  meta: Omit<PictureMeta, 'bytes' | 'sha256' | 'mime'>;
  jpeg: Uint8Array;
  thumb: Uint8Array;
}

/**
 * The ship's pictures: `<dir>/<camera>/<pictureId>.jpg`, its thumbnail `.thumb.jpg` and its
 * metadata `.json`, written in that order, each through a temporary name and a rename, so a
 * picture exists once its metadata does and a crash mid-write leaves no half picture behind.
 * The index is rebuilt from the metadata files when the store opens. Retention by age and total
 * size, oldest first, like the ship recorder's.
 */
export class PictureStore {
  private readonly pictures = new Map<string, StoredPicture>();
  private readonly maxAgeMs: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private total = 0;

  constructor(
    readonly dir: string,
    opts: PictureStoreOptions = {},
  ) {
    this.maxAgeMs = opts.maxAgeMs ?? 30 * 24 * 3_600_000;
    this.maxBytes = opts.maxBytes ?? 2 * 1024 ** 3;
    this.now = opts.now ?? Date.now;
    mkdirSync(dir, { recursive: true });
    this.load();
  }

  get size(): number {
    return this.pictures.size;
  }

  get totalBytes(): number {
    return this.total;
  }

  get(pictureId: string): StoredPicture | undefined {
    return this.pictures.get(pictureId);
  }

  /** Keeps a new picture; returns its metadata (with size and checksum). */
  add(picture: NewPicture): StoredPicture {
    const { meta, jpeg, thumb } = picture;
    if (this.pictures.has(meta.pictureId)) throw new Error(`picture ${meta.pictureId} exists already`);
    const stored: StoredPicture = {
      ...meta,
      mime: 'image/jpeg',
      bytes: jpeg.byteLength,
      sha256: createHash('sha256').update(jpeg).digest('hex'),
      thumbBytes: thumb.byteLength,
    };
    const base = this.base(stored);
    mkdirSync(join(this.dir, cameraDirName(meta.cameraId)), { recursive: true });
    writeAtomically(`${base}.jpg`, jpeg);
    writeAtomically(`${base}.thumb.jpg`, thumb);
    writeAtomically(`${base}.json`, JSON.stringify(stored));
    this.pictures.set(stored.pictureId, stored);
    this.total += stored.bytes + stored.thumbBytes;
    this.applyRetention();
    return stored;
  }

  /** The picture's bytes, or undefined when it is gone (retention) or its file does not match its checksum. */
  read(pictureId: string): Buffer | undefined {
    const p = this.pictures.get(pictureId);
    if (!p) return undefined;
    const bytes = readOrUndefined(`${this.base(p)}.jpg`);
    if (!bytes || bytes.byteLength !== p.bytes || createHash('sha256').update(bytes).digest('hex') !== p.sha256) return undefined;
    return bytes;
  }

  readThumb(pictureId: string): Buffer | undefined {
    const p = this.pictures.get(pictureId);
    return p ? readOrUndefined(`${this.base(p)}.thumb.jpg`) : undefined;
  }

  /** Pictures of a camera in [from, to), newest first, at most `limit`; `truncated` when more matched. */
  list(cameraId: string, from: number, to: number, limit = PICTURE_LIST_MAX): { pictures: StoredPicture[]; truncated: boolean } {
    const matching = [...this.pictures.values()].filter((p) => p.cameraId === cameraId && p.time >= from && p.time < to).sort((a, b) => b.time - a.time);
    return { pictures: matching.slice(0, limit), truncated: matching.length > limit };
  }

  /** Deletes pictures older than the age limit, then the oldest until under the size limit. Returns the ids deleted. */
  applyRetention(): string[] {
    const horizon = this.now() - this.maxAgeMs;
    const byAge = [...this.pictures.values()].sort((a, b) => a.time - b.time);
    const removed: string[] = [];
    for (const p of byAge) {
      if (p.time >= horizon && this.total <= this.maxBytes) break;
      this.remove(p);
      removed.push(p.pictureId);
    }
    return removed;
  }

  private remove(p: StoredPicture): void {
    const base = this.base(p);
    // Metadata first: from here on the picture does not exist, whatever is left of its files.
    rmSync(`${base}.json`, { force: true });
    rmSync(`${base}.jpg`, { force: true });
    rmSync(`${base}.thumb.jpg`, { force: true });
    this.pictures.delete(p.pictureId);
    this.total -= p.bytes + p.thumbBytes;
  }

  private base(p: Pick<PictureMeta, 'cameraId' | 'pictureId'>): string {
    return join(this.dir, cameraDirName(p.cameraId), p.pictureId);
  }

  private load(): void {
    for (const camera of readdirSync(this.dir, { withFileTypes: true })) {
      if (!camera.isDirectory()) continue;
      const dir = join(this.dir, camera.name);
      for (const name of readdirSync(dir)) {
        // A write a crash interrupted: no metadata points at it.
        if (name.endsWith('.tmp')) {
          rmSync(join(dir, name), { force: true });
          continue;
        }
        if (!name.endsWith('.json')) continue;
        try {
          const p = JSON.parse(readFileSync(join(dir, name), 'utf8')) as StoredPicture;
          if (typeof p.pictureId !== 'string' || typeof p.bytes !== 'number' || typeof p.time !== 'number') continue;
          this.pictures.set(p.pictureId, p);
          this.total += p.bytes + (p.thumbBytes ?? 0);
        } catch {
          // Unreadable metadata: the picture is not listed (its files go with the next retention of the folder).
        }
      }
    }
  }
}

/** A stored picture as a list entry (the thumbnail follows separately). */
export function listEntry(p: StoredPicture): ShipPictureEntry {
  return { pictureId: p.pictureId, cameraId: p.cameraId, time: p.time, bytes: p.bytes, width: p.width, height: p.height, origin: p.origin, thumbBytes: p.thumbBytes };
}

/** The metadata that crosses the link (without the ship-only thumbnail size). */
export function pictureMeta(p: StoredPicture): PictureMeta {
  const { thumbBytes: _thumbBytes, ...meta } = p;
  return meta;
}

function writeAtomically(path: string, data: Uint8Array | string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
