import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import sharp from 'sharp';
import { ObjectNotFoundError, type ObjectStore } from './object-store.ts';

/** A name safe as one path segment. */
export const pathSegment = (s: string) => s.replace(/[^\w.-]/g, '_');

/** Key of a folder's relative path in the shared store: `<prefix>/<path with forward slashes>`. */
export const sharedKey = (prefix: string, rel: string) => `${prefix}/${rel.split(/[\\/]/).join('/')}`;

/** What a ship offered of a picture it sends by store-and-forward. */
export interface OfferedJpeg {
  bytes: number;
  sha256: string;
  width: number;
  height: number;
}

/**
 * A folder of files ships send by store-and-forward (pictures, event pictures): `incoming/<ship>/
 * <id>.part` for one on its way — its size is where the ship resumes, kept across outages and
 * restarts of either end — and the files kept, at paths relative to the folder. With a shared
 * object store (STORAGE=nats) each kept file is also under `<prefix>/<relative path>`, and read
 * from there when this instance's folder lacks it (another instance wrote it, or this one lost its
 * disk). A file on its way stays on the disk of the instance holding the ship's link.
 */
export class ShipUploadFolder {
  constructor(
    readonly dir: string,
    private readonly prefix: string,
    protected readonly shared?: ObjectStore,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Key of a relative path in the shared store. */
  key(rel: string): string {
    return sharedKey(this.prefix, rel);
  }

  /** The absolute path of a stored relative path; refuses one that leaves the folder. */
  path(rel: string): string {
    const abs = resolve(this.dir, rel);
    if (abs !== this.dir && !abs.startsWith(this.dir + sep)) throw new Error(`${rel} is outside the ${this.prefix} folder`);
    return abs;
  }

  protected partial(shipId: string, id: string): string {
    return join(this.dir, 'incoming', pathSegment(shipId), `${pathSegment(id)}.part`);
  }

  /** Bytes shore holds of a file on its way: where the ship resumes. */
  received(shipId: string, id: string): number {
    try {
      return statSync(this.partial(shipId, id)).size;
    } catch {
      return 0;
    }
  }

  /**
   * Adds a chunk at `offset` to a file of which `held` bytes are on disk (the caller keeps the
   * count: no stat per chunk): appended when it starts where the file ends, the new part of it when
   * it overlaps what is there (sent twice across a reconnect), refused when it would leave a gap.
   * Returns the bytes held afterwards, or undefined for a gap.
   */
  append(shipId: string, id: string, held: number, offset: number, bytes: Uint8Array): number | undefined {
    if (offset > held) return undefined;
    const fresh = bytes.subarray(Math.min(bytes.length, held - offset));
    if (fresh.length > 0) {
      const file = this.partial(shipId, id);
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, fresh);
    }
    return held + fresh.length;
  }

  discard(shipId: string, id: string): void {
    rmSync(this.partial(shipId, id), { force: true });
  }

  /**
   * The whole file on its way once its last byte arrived, with a `reject` that throws it away and
   * gives the reason; undefined when nothing of it is here.
   */
  protected arrived(shipId: string, id: string): { bytes: Buffer; partial: string; reject: (reason: string) => { ok: false; reason: string } } | undefined {
    const partial = this.partial(shipId, id);
    let bytes: Buffer;
    try {
      bytes = readFileSync(partial);
    } catch {
      return undefined;
    }
    return {
      bytes,
      partial,
      reject: (reason) => {
        rmSync(partial, { force: true });
        return { ok: false, reason };
      },
    };
  }

  /** The file's bytes: from this instance's folder, else from the shared store; undefined when neither has it. */
  async read(rel: string): Promise<Buffer | undefined> {
    try {
      return readFileSync(this.path(rel));
    } catch {
      if (!this.shared) return undefined;
    }
    try {
      return await this.shared.get(this.key(rel));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
  }

  /** Removes the file here and from the shared store. */
  async remove(rel: string | null | undefined): Promise<void> {
    if (!rel) return;
    rmSync(this.path(rel), { force: true });
    await this.shared?.delete(this.key(rel));
  }
}

/**
 * Why the bytes that arrived are not the JPEG the ship offered — its size, its SHA-256, a JPEG of
 * the width and height named that decodes whole — or undefined when they are. `decode` does the
 * whole decode (a thumbnail made from it, or statistics) and finds a truncated or corrupt picture.
 */
export async function checkOfferedJpeg<T>(bytes: Buffer, offered: OfferedJpeg, decode: (bytes: Buffer) => Promise<T>): Promise<{ problem: string } | { decoded: T }> {
  if (bytes.length !== offered.bytes) return { problem: `${bytes.length} bytes arrived, ${offered.bytes} were offered` };
  if (createHash('sha256').update(bytes).digest('hex') !== offered.sha256) return { problem: 'the bytes do not match their checksum' };
  try {
    const info = await sharp(bytes).metadata();
    if (info.format !== 'jpeg') return { problem: `not a JPEG (${info.format ?? 'unknown format'})` };
    if (info.width !== offered.width || info.height !== offered.height) return { problem: `a ${info.width}×${info.height} picture, offered as ${offered.width}×${offered.height}` };
    return { decoded: await decode(bytes) };
  } catch (err) {
    return { problem: `not a picture that decodes: ${err instanceof Error ? err.message : String(err)}` };
  }
}
