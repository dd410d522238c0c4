import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { EVENT_PICTURE_MAX_BYTES, EVENT_PICTURE_MAX_WIDTH } from '@ship-cctv/protocol';

export interface EventPicture {
  jpeg: Buffer;
  width: number;
  height: number;
  sha256: string;
}

/** JPEG qualities tried in turn, then the same at a smaller width, until the picture fits. */
const QUALITIES = [72, 60, 48, 36];
const WIDTHS = [EVENT_PICTURE_MAX_WIDTH, 480, 320];

/**
 * An event's best frame as its picture: JPEG at most EVENT_PICTURE_MAX_WIDTH wide and at most
 * EVENT_PICTURE_MAX_BYTES (30 kB): the best quality that fits, then a smaller picture.
 */
export async function eventPicture(rgb: Uint8Array, width: number, height: number, maxBytes = EVENT_PICTURE_MAX_BYTES): Promise<EventPicture> {
  for (const w of WIDTHS) {
    const outW = Math.min(w, width);
    const outH = Math.max(16, Math.round((height * outW) / width));
    for (const quality of QUALITIES) {
      const jpeg = await sharp(rgb, { raw: { width, height, channels: 3 } })
        .resize(outW, outH, { fit: 'fill' })
        .jpeg({ quality, mozjpeg: true })
        .toBuffer();
      if (jpeg.length <= maxBytes) return { jpeg, width: outW, height: outH, sha256: createHash('sha256').update(jpeg).digest('hex') };
    }
  }
  throw new Error(`the event picture does not fit in ${maxBytes} bytes`);
}
