import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { PictureMeta } from '@ship-cctv/protocol';
import type { ObjectStore } from '../../core/storage/object-store.ts';
import { checkOfferedJpeg, pathSegment, sharedKey, ShipUploadFolder } from '../../core/storage/ship-upload-folder.ts';
import { isTransientStorageError } from '../../core/storage/transient.ts';

/** Shore thumbnails are this wide (a gallery cell); the ship's own are smaller. */
export const SHORE_THUMB_WIDTH = 320;

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
export class PictureFiles extends ShipUploadFolder {
  constructor(dir: string, shared?: ObjectStore) {
    super(dir, 'pictures', shared);
  }

  /** Key of a relative path in the shared store. */
  static key(rel: string): string {
    return sharedKey('pictures', rel);
  }

  /**
   * A picture whose last byte arrived: checked against what was offered (size, SHA-256, a JPEG
   * sharp can decode, its size), then moved into place with a thumbnail. A picture that fails is
   * thrown away and the reason returned: it is never stored.
   */
  async complete(shipId: string, meta: PictureMeta): Promise<Verdict> {
    const arrived = this.arrived(shipId, meta.pictureId);
    if (!arrived) return { ok: false, reason: 'nothing of it arrived' };
    const { bytes, partial, reject } = arrived;
    // Decoding the whole picture for the thumbnail also finds a truncated or corrupt JPEG.
    const checked = await checkOfferedJpeg(bytes, meta, (whole) =>
      sharp(whole, { failOn: 'truncated' }).resize({ width: SHORE_THUMB_WIDTH, withoutEnlargement: true }).jpeg({ quality: 70 }).toBuffer(),
    );
    if ('problem' in checked) return reject(checked.problem);
    const thumb = checked.decoded;
    const day = new Date(meta.time).toISOString().slice(0, 10);
    const base = join(pathSegment(shipId), day, pathSegment(meta.pictureId));
    const file = `${base}.jpg`;
    const thumbFile = `${base}.thumb.jpg`;
    if (this.shared) {
      // Shared before it counts as stored. A store that is slow or away keeps the picture here
      // for another try (its bytes need not cross again); one that refuses it for good has the
      // ship send it again.
      try {
        await this.shared.put(this.key(file), bytes);
        await this.shared.put(this.key(thumbFile), thumb);
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
    const rel = join('ship-thumbs', pathSegment(shipId), `${pathSegment(pictureId)}.jpg`);
    const abs = this.path(rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeAtomically(abs, jpeg);
    await this.shared?.put(this.key(rel), jpeg);
    return rel;
  }

  /** Puts a file this instance made (an enhanced result) in the shared store. */
  async share(rel: string): Promise<void> {
    await this.shared?.put(this.key(rel), readFileSync(this.path(rel)));
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
}

function writeAtomically(path: string, data: Uint8Array): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
