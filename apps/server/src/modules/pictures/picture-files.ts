import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import sharp from 'sharp';
import type { PictureMeta } from '@ship-cctv/protocol';
import { ObjectNotFoundError, type ObjectStore } from '../../core/storage/object-store.ts';
import { isTransientStorageError } from '../../core/storage/transient.ts';

/** Shore thumbnails are this wide (a gallery cell); the ship's own are smaller. */
export const SHORE_THUMB_WIDTH = 320;

/** A name safe as one path segment. */
const segment = (s: string) => s.replace(/[^\w.-]/g, '_');

/**
 * What became of a picture whose last byte arrived: stored; refused (`later` absent: not the
 * picture offered, thrown away); or good but not stored yet (`later`: the shared store did not
 * take it for a reason that may pass — the bytes stay in `incoming/` for another try).
 */
export type Verdict = { ok: true; file: string; thumbFile: string; thumbBytes: number } | { ok: false; reason: string; later?: true };

/**
 * Picture files on shore, under one folder (DATA_DIR/pictures): `<ship>/<yyyy-mm-dd>/<id>.jpg`
 * and `.thumb.jpg` for pictures held, `incoming/<ship>/<id>.part` for one on its way (its size is
 * where the ship resumes), `ship-thumbs/<ship>/<id>.jpg` for thumbnails of what a ship holds.
 * Paths kept in the database are relative to the folder.
 *
 * With a shared object store (STORAGE=nats) every file kept — picture, thumbnail, a ship's
 * thumbnail, an enhanced result — is also put under `pictures/<relative path>` before it counts as
 * stored, and read from there when this instance's folder lacks it: another instance wrote it, or
 * this one lost its disk. A picture on its way (`incoming/`) stays on the disk of the instance
 * holding the ship's link.
 */
export class PictureFiles {
  constructor(
    readonly dir: string,
    private readonly shared?: ObjectStore,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Key of a relative path in the shared store. */
  static key(rel: string): string {
    return `pictures/${rel.split(/[\\/]/).join('/')}`;
  }

  /** The absolute path of a stored relative path; refuses one that leaves the folder. */
  path(rel: string): string {
    const abs = resolve(this.dir, rel);
    if (abs !== this.dir && !abs.startsWith(this.dir + sep)) throw new Error(`${rel} is outside the pictures folder`);
    return abs;
  }

  private partial(shipId: string, pictureId: string): string {
    return join(this.dir, 'incoming', segment(shipId), `${segment(pictureId)}.part`);
  }

  /** Bytes shore holds of a picture on its way: where the ship resumes. */
  received(shipId: string, pictureId: string): number {
    try {
      return statSync(this.partial(shipId, pictureId)).size;
    } catch {
      return 0;
    }
  }

  /**
   * Adds a chunk at `offset` to a picture of which `held` bytes are on disk (the caller keeps the
   * count: no stat per chunk): appended when it starts where the file ends, the new part of it when
   * it overlaps what is there (sent twice across a reconnect), refused when it would leave a gap.
   * Returns the bytes held afterwards, or undefined for a gap.
   */
  append(shipId: string, pictureId: string, held: number, offset: number, bytes: Uint8Array): number | undefined {
    const file = this.partial(shipId, pictureId);
    if (offset > held) return undefined;
    const fresh = bytes.subarray(Math.min(bytes.length, held - offset));
    if (fresh.length > 0) {
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, fresh);
    }
    return held + fresh.length;
  }

  discard(shipId: string, pictureId: string): void {
    rmSync(this.partial(shipId, pictureId), { force: true });
  }

  /**
   * A picture whose last byte arrived: checked against what was offered (size, SHA-256, a JPEG
   * sharp can decode, its size), then moved into place with a thumbnail. A picture that fails is
   * thrown away and the reason returned: it is never stored.
   */
  async complete(shipId: string, meta: PictureMeta): Promise<Verdict> {
    const partial = this.partial(shipId, meta.pictureId);
    let bytes: Buffer;
    try {
      bytes = readFileSync(partial);
    } catch {
      return { ok: false, reason: 'nothing of it arrived' };
    }
    const reject = (reason: string): Verdict => {
      rmSync(partial, { force: true });
      return { ok: false, reason };
    };
    if (bytes.length !== meta.bytes) return reject(`${bytes.length} bytes arrived, ${meta.bytes} were offered`);
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (sha !== meta.sha256) return reject('the bytes do not match their checksum');
    let thumb: Buffer;
    try {
      const info = await sharp(bytes).metadata();
      if (info.format !== 'jpeg') return reject(`not a JPEG (${info.format ?? 'unknown format'})`);
      if (info.width !== meta.width || info.height !== meta.height) return reject(`a ${info.width}×${info.height} picture, offered as ${meta.width}×${meta.height}`);
      // Decoding the whole picture for the thumbnail also finds a truncated or corrupt JPEG.
      thumb = await sharp(bytes, { failOn: 'truncated' }).resize({ width: SHORE_THUMB_WIDTH, withoutEnlargement: true }).jpeg({ quality: 70 }).toBuffer();
    } catch (err) {
      return reject(`not a picture that decodes: ${err instanceof Error ? err.message : String(err)}`);
    }
    const day = new Date(meta.time).toISOString().slice(0, 10);
    const base = join(segment(shipId), day, segment(meta.pictureId));
    const file = `${base}.jpg`;
    const thumbFile = `${base}.thumb.jpg`;
    if (this.shared) {
      // Shared before it counts as stored. A store that is slow or away keeps the picture here
      // for another try (its bytes need not cross again); one that refuses it for good has the
      // ship send it again.
      try {
        await this.shared.put(PictureFiles.key(file), bytes);
        await this.shared.put(PictureFiles.key(thumbFile), thumb);
      } catch (err) {
        const reason = `the shared store did not take it: ${err instanceof Error ? err.message : String(err)}`;
        return isTransientStorageError(err) ? { ok: false, reason, later: true } : reject(reason);
      }
    }
    mkdirSync(dirname(this.path(file)), { recursive: true });
    writeAtomically(this.path(thumbFile), thumb);
    renameSync(partial, this.path(file));
    return { ok: true, file, thumbFile, thumbBytes: thumb.length };
  }

  /** Keeps a ship's thumbnail (from a list answer); returns its relative path. */
  async saveShipThumb(shipId: string, pictureId: string, jpeg: Uint8Array): Promise<string> {
    const rel = join('ship-thumbs', segment(shipId), `${segment(pictureId)}.jpg`);
    const abs = this.path(rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeAtomically(abs, jpeg);
    await this.shared?.put(PictureFiles.key(rel), jpeg);
    return rel;
  }

  /** Puts a file this instance made (an enhanced result) in the shared store. */
  async share(rel: string): Promise<void> {
    await this.shared?.put(PictureFiles.key(rel), readFileSync(this.path(rel)));
  }

  /** The file's bytes: from this instance's folder, else from the shared store; undefined when neither has it. */
  async read(rel: string): Promise<Buffer | undefined> {
    try {
      return readFileSync(this.path(rel));
    } catch {
      if (!this.shared) return undefined;
    }
    try {
      return await this.shared.get(PictureFiles.key(rel));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
  }

  /** The file's absolute path, fetched from the shared store first when this folder lacks it (a process reads it by path). */
  async local(rel: string): Promise<string> {
    const abs = this.path(rel);
    if (existsSync(abs) || !this.shared) return abs;
    const bytes = await this.read(rel);
    if (bytes) {
      mkdirSync(dirname(abs), { recursive: true });
      writeAtomically(abs, bytes);
    }
    return abs;
  }

  /** Removes the file here and from the shared store. */
  async remove(rel: string | null | undefined): Promise<void> {
    if (!rel) return;
    rmSync(this.path(rel), { force: true });
    await this.shared?.delete(PictureFiles.key(rel));
  }
}

function writeAtomically(path: string, data: Uint8Array): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
