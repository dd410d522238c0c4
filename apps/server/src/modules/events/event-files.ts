import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import sharp from 'sharp';
import type { ShipEvent } from '@ship-cctv/protocol';
import { ObjectNotFoundError, type ObjectStore } from '../../core/storage/object-store.ts';

/** A name safe as one path segment. */
const segment = (s: string) => s.replace(/[^\w.-]/g, '_');

/** What became of a picture whose last byte arrived: kept (its relative path), or refused with the reason. */
export type PictureVerdict = { ok: true; file: string } | { ok: false; reason: string };

/**
 * Event pictures on shore, under one folder (DATA_DIR/events): `<ship>/<yyyy-mm-dd>/<id>.jpg` for
 * pictures held, `incoming/<ship>/<id>.part` for one on its way (its size is where the ship
 * resumes, kept across outages and restarts of either end). With the recorder's shared object
 * store (STORAGE=nats) a picture is also put under `events/<relative path>` before it counts as
 * stored, and read from there when this instance's folder lacks it.
 */
export class EventFiles {
  constructor(
    readonly dir: string,
    private readonly shared?: ObjectStore,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  static key(rel: string): string {
    return `events/${rel.split(/[\\/]/).join('/')}`;
  }

  private path(rel: string): string {
    const abs = resolve(this.dir, rel);
    if (!abs.startsWith(this.dir + sep)) throw new Error(`${rel} is outside the events folder`);
    return abs;
  }

  private partial(shipId: string, eventId: string): string {
    return join(this.dir, 'incoming', segment(shipId), `${segment(eventId)}.part`);
  }

  /** Bytes shore holds of an event's picture on its way: where the ship resumes. */
  received(shipId: string, eventId: string): number {
    try {
      return statSync(this.partial(shipId, eventId)).size;
    } catch {
      return 0;
    }
  }

  /**
   * Adds a chunk at `offset` to a picture of which `held` bytes are on disk: the new part of it
   * when it overlaps what is there, refused (undefined) when it would leave a gap. Returns the
   * bytes held afterwards.
   */
  append(shipId: string, eventId: string, held: number, offset: number, bytes: Uint8Array): number | undefined {
    if (offset > held) return undefined;
    const fresh = bytes.subarray(Math.min(bytes.length, held - offset));
    if (fresh.length > 0) {
      const file = this.partial(shipId, eventId);
      mkdirSync(dirname(file), { recursive: true });
      appendFileSync(file, fresh);
    }
    return held + fresh.length;
  }

  discard(shipId: string, eventId: string): void {
    rmSync(this.partial(shipId, eventId), { force: true });
  }

  /**
   * A picture whose last byte arrived, checked against its record (size, SHA-256, a JPEG of the
   * size it names that decodes whole), then moved into place (and into the shared store). A
   * picture that fails is thrown away and the reason returned.
   */
  async complete(shipId: string, event: ShipEvent): Promise<PictureVerdict> {
    const partial = this.partial(shipId, event.eventId);
    let bytes: Buffer;
    try {
      bytes = readFileSync(partial);
    } catch {
      return { ok: false, reason: 'nothing of it arrived' };
    }
    const reject = (reason: string): PictureVerdict => {
      rmSync(partial, { force: true });
      return { ok: false, reason };
    };
    const { picture } = event;
    if (bytes.length !== picture.bytes) return reject(`${bytes.length} bytes arrived, ${picture.bytes} were offered`);
    if (createHash('sha256').update(bytes).digest('hex') !== picture.sha256) return reject('the bytes do not match their checksum');
    try {
      const info = await sharp(bytes, { failOn: 'truncated' }).metadata();
      if (info.format !== 'jpeg') return reject(`not a JPEG (${info.format ?? 'unknown format'})`);
      if (info.width !== picture.width || info.height !== picture.height) return reject(`a ${info.width}×${info.height} picture, offered as ${picture.width}×${picture.height}`);
      await sharp(bytes, { failOn: 'truncated' }).stats();
    } catch (err) {
      return reject(`not a picture that decodes: ${err instanceof Error ? err.message : String(err)}`);
    }
    const file = join(segment(shipId), new Date(event.start).toISOString().slice(0, 10), `${segment(event.eventId)}.jpg`);
    // Shared before it counts as stored; a store that fails leaves the bytes here for the next offer.
    await this.shared?.put(EventFiles.key(file), bytes);
    mkdirSync(dirname(this.path(file)), { recursive: true });
    renameSync(partial, this.path(file));
    return { ok: true, file };
  }

  /** The picture's bytes: from this instance's folder, else from the shared store; undefined when neither has it. */
  async read(rel: string): Promise<Buffer | undefined> {
    try {
      return readFileSync(this.path(rel));
    } catch {
      if (!this.shared) return undefined;
    }
    try {
      return await this.shared.get(EventFiles.key(rel));
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return undefined;
      throw err;
    }
  }

  async remove(rel: string): Promise<void> {
    rmSync(this.path(rel), { force: true });
    await this.shared?.delete(EventFiles.key(rel));
  }
}
