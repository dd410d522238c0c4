import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { ShipEvent } from '@ship-cctv/protocol';
import type { ObjectStore } from '../../core/storage/object-store.ts';
import { checkOfferedJpeg, pathSegment, ShipUploadFolder } from '../../core/storage/ship-upload-folder.ts';

/** What became of a picture whose last byte arrived: kept (its relative path), or refused with the reason. */
export type PictureVerdict = { ok: true; file: string } | { ok: false; reason: string };

/**
 * Event pictures on shore, under one folder (DATA_DIR/events): `<ship>/<yyyy-mm-dd>/<id>.jpg` for
 * pictures held, `incoming/<ship>/<id>.part` for one on its way (ShipUploadFolder). With the
 * recorder's shared object store (STORAGE=nats) a picture is also put under
 * `events/<relative path>` before it counts as stored.
 */
export class EventFiles extends ShipUploadFolder {
  constructor(dir: string, shared?: ObjectStore) {
    super(dir, 'events', shared);
  }

  /**
   * A picture whose last byte arrived, checked against its record (size, SHA-256, a JPEG of the
   * size it names that decodes whole), then moved into place (and into the shared store). A
   * picture that fails is thrown away and the reason returned.
   */
  async complete(shipId: string, event: ShipEvent): Promise<PictureVerdict> {
    const arrived = this.arrived(shipId, event.eventId);
    if (!arrived) return { ok: false, reason: 'nothing of it arrived' };
    const checked = await checkOfferedJpeg(arrived.bytes, event.picture, (bytes) => sharp(bytes, { failOn: 'truncated' }).stats());
    if ('problem' in checked) return arrived.reject(checked.problem);
    const file = join(pathSegment(shipId), new Date(event.start).toISOString().slice(0, 10), `${pathSegment(event.eventId)}.jpg`);
    // Shared before it counts as stored; a store that fails leaves the bytes here for the next offer.
    await this.shared?.put(this.key(file), arrived.bytes);
    mkdirSync(dirname(this.path(file)), { recursive: true });
    renameSync(arrived.partial, this.path(file));
    return { ok: true, file };
  }
}
