import { opusPacketSamples } from './opus-packet.ts';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg page checksum: CRC-32, polynomial 0x04c11db7, no reflection, initial value 0. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ b) & 0xff] ?? 0)) >>> 0;
  return crc;
}

const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
/** Samples the decoder drops at the start (the encoder's look-ahead; RFC 7845 §4.2). */
const PRE_SKIP = 312;

/**
 * Writes raw Opus packets (mono, 48 kHz) as an Ogg Opus stream (RFC 7845): the OpusHead and
 * OpusTags pages, then one page per batch of packets with its granule position (the 48 kHz
 * samples up to its last packet) and checksum, and an end-of-stream page. What it returns goes to
 * the talk's file and to the decoder as it is made, so every page stands complete on its own.
 */
export class OggOpusWriter {
  private sequence = 0;
  private granule = 0n;
  private ended = false;

  constructor(private readonly serial = (Math.random() * 0xffffffff) >>> 0) {}

  /** The two header pages. */
  head(vendor = 'ship-cctv talkback'): Uint8Array {
    const head = new Uint8Array(19);
    head.set(new TextEncoder().encode('OpusHead'), 0);
    const hv = new DataView(head.buffer);
    hv.setUint8(8, 1); // version
    hv.setUint8(9, 1); // channels
    hv.setUint16(10, PRE_SKIP, true);
    hv.setUint32(12, 48_000, true); // the input's rate (informational)
    hv.setInt16(16, 0, true); // output gain
    hv.setUint8(18, 0); // mapping family 0: mono or stereo
    const vendorBytes = new TextEncoder().encode(vendor);
    const tags = new Uint8Array(8 + 4 + vendorBytes.length + 4);
    tags.set(new TextEncoder().encode('OpusTags'), 0);
    const tv = new DataView(tags.buffer);
    tv.setUint32(8, vendorBytes.length, true);
    tags.set(vendorBytes, 12);
    tv.setUint32(12 + vendorBytes.length, 0, true); // no comments
    return concat([this.page([head], FLAG_BOS, 0n), this.page([tags], 0, 0n)]);
  }

  /** A page of packets (several pages if they need more than 255 segments). */
  packets(packets: readonly Uint8Array[]): Uint8Array {
    const pages: Uint8Array[] = [];
    let batch: Uint8Array[] = [];
    let segments = 0;
    for (const p of packets) {
      const need = Math.floor(p.length / 255) + 1;
      if (segments + need > 255 && batch.length > 0) {
        pages.push(this.page(batch, 0, this.granule));
        batch = [];
        segments = 0;
      }
      batch.push(p);
      segments += need;
      this.granule += BigInt(opusPacketSamples(p));
    }
    if (batch.length > 0) pages.push(this.page(batch, 0, this.granule));
    return concat(pages);
  }

  /** The end-of-stream page (empty), once. */
  end(): Uint8Array {
    if (this.ended) return new Uint8Array(0);
    this.ended = true;
    return this.page([], FLAG_EOS, this.granule);
  }

  /** 48 kHz samples written so far. */
  get samples(): number {
    return Number(this.granule);
  }

  private page(packets: readonly Uint8Array[], flags: number, granule: bigint): Uint8Array {
    const lacing: number[] = [];
    for (const p of packets) {
      for (let left = p.length; ; left -= 255) {
        lacing.push(Math.min(left, 255));
        if (left < 255) break;
      }
    }
    const bodyLength = packets.reduce((n, p) => n + p.length, 0);
    const page = new Uint8Array(27 + lacing.length + bodyLength);
    const v = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
    v.setUint8(4, 0); // version
    v.setUint8(5, flags);
    v.setBigUint64(6, granule, true);
    v.setUint32(14, this.serial, true);
    v.setUint32(18, this.sequence++, true);
    v.setUint32(22, 0, true); // checksum, filled below
    v.setUint8(26, lacing.length);
    page.set(lacing, 27);
    let at = 27 + lacing.length;
    for (const p of packets) {
      page.set(p, at);
      at += p.length;
    }
    v.setUint32(22, oggCrc(page), true);
    return page;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
