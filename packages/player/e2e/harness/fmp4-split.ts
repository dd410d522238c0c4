import { boxes, findBox } from '../../src/fmp4.ts';

export type Piece = { kind: 'init' | 'media'; bytes: Uint8Array };

/**
 * Cuts ffmpeg's fragmented MP4 stream, which arrives in pipe-sized chunks, into the messages of
 * the media socket: the init segment (ftyp+moov) and one moof+mdat per fragment.
 */
export class Fmp4Splitter {
  private pending = new Uint8Array(0);
  private ftyp: Uint8Array | undefined;
  private moof: Uint8Array | undefined;

  push(chunk: Uint8Array): Piece[] {
    const buffer = concat(this.pending, chunk);
    const out: Piece[] = [];
    let consumed = 0;
    for (const box of boxes(buffer)) {
      consumed = box.end;
      const bytes = buffer.slice(box.start, box.end);
      if (box.type === 'ftyp') this.ftyp = bytes;
      else if (box.type === 'moov') out.push({ kind: 'init', bytes: this.ftyp ? concat(this.ftyp, bytes) : bytes });
      else if (box.type === 'moof') this.moof = bytes;
      else if (box.type === 'mdat' && this.moof) {
        out.push({ kind: 'media', bytes: concat(this.moof, bytes) });
        this.moof = undefined;
      }
    }
    this.pending = buffer.slice(consumed);
    return out;
  }
}

/** RFC 6381 codec string and picture size from the avc1 sample entry of an init segment. */
export function readAvcCodec(init: Uint8Array): { mime: string; width: number; height: number } | undefined {
  const stsd = findBox(init, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd']);
  if (!stsd) return undefined;
  // stsd: version/flags and entry count, then the sample entries.
  const entry = boxes(init, stsd.body + 8, stsd.end).next();
  if (entry.done || !['avc1', 'avc3'].includes(entry.value.type)) return undefined;
  const avc = entry.value;
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  // VisualSampleEntry: 24 bytes of reserved and pre-defined fields, then width and height; its
  // child boxes (avcC) start 78 bytes into the body.
  const width = view.getUint16(avc.body + 24);
  const height = view.getUint16(avc.body + 26);
  const avcC = findBox(init, ['avcC'], avc.body + 78, avc.end);
  if (!avcC) return undefined;
  const hex = [1, 2, 3].map((i) => (init[avcC.body + i] ?? 0).toString(16).padStart(2, '0')).join('');
  return { mime: `video/mp4; codecs="${avc.type}.${hex}"`, width, height };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Whether a fragment starts with a sync sample (keyframe): the first sample's flags come from the
 * trun (first-sample or per-sample flags) or else from the tfhd default; bit 16 is
 * sample_is_non_sync_sample.
 */
export function startsWithKeyframe(fragment: Uint8Array): boolean {
  const tfhd = findBox(fragment, ['moof', 'traf', 'tfhd']);
  const trun = findBox(fragment, ['moof', 'traf', 'trun']);
  if (!tfhd || !trun) return false;
  const view = new DataView(fragment.buffer, fragment.byteOffset, fragment.byteLength);
  const runFlags = view.getUint32(trun.body) & 0xffffff;
  let at = trun.body + 8; // version/flags, sample_count
  if (runFlags & 0x1) at += 4; // data_offset
  let flags: number | undefined;
  if (runFlags & 0x4) flags = view.getUint32(at);
  else if (runFlags & 0x400) flags = view.getUint32(at + (runFlags & 0x100 ? 4 : 0) + (runFlags & 0x200 ? 4 : 0));
  if (flags === undefined) {
    const headerFlags = view.getUint32(tfhd.body) & 0xffffff;
    if (!(headerFlags & 0x20)) return false;
    let h = tfhd.body + 8; // version/flags, track_ID
    for (const [bit, size] of [[0x1, 8], [0x2, 4], [0x8, 4], [0x10, 4]] as const) if (headerFlags & bit) h += size;
    flags = view.getUint32(h);
  }
  return (flags & 0x10000) === 0;
}
