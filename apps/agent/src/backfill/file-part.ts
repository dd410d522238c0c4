import { type FileHandle, open } from 'node:fs/promises';
import { type FragmentInfo, MoofReader, type VideoDefinition } from '@ship-cctv/media';

/** A run of a file's bytes, [from, to). */
export interface ByteRange {
  from: number;
  to: number;
}

/** What of a recorded file to send: its byte ranges (read when sent), their length, the span they hold (epoch ms) and its definition. */
export interface FilePart {
  ranges: ByteRange[];
  bytes: number;
  start: number;
  end: number;
  /** The whole file, as it is. */
  whole: boolean;
  /** What the part holds: size, pictures and bits a second, codec (undefined: the file is not fragmented MP4 that parses). */
  definition?: VideoDefinition;
}

/** Largest moof read (a fragment's sample table): a bigger one is no file of the recorder's. */
const MAX_MOOF_BYTES = 1024 * 1024;

interface TopBox {
  type: string;
  at: number;
  size: number;
}

/** The file's top-level boxes, from their headers alone; stops at the first that does not fit (a file cut short). */
async function topBoxes(fh: FileHandle, length: number): Promise<TopBox[]> {
  const header = Buffer.alloc(16);
  const out: TopBox[] = [];
  let at = 0;
  while (at + 8 <= length) {
    const { bytesRead } = await fh.read(header, 0, 16, at);
    if (bytesRead < 8) break;
    const size32 = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    const size = size32 === 1 && bytesRead >= 16 ? Number(header.readBigUInt64BE(8)) : size32 === 0 ? length - at : size32;
    if (size < 8 || at + size > length) break;
    out.push({ type, at, size });
    at += size;
  }
  return out;
}

/** Bytes [from, to) of the file. */
async function readRange(fh: FileHandle, from: number, to: number): Promise<Buffer> {
  const buf = Buffer.alloc(to - from);
  const { bytesRead } = await fh.read(buf, 0, buf.length, from);
  return buf.subarray(0, bytesRead);
}

/**
 * The part of a recorded segment file (fragmented MP4, `start`–`end` on the wall clock) that covers
 * [from, to): its init segment and the whole fragments from the keyframe at or before `from` to the
 * last one beginning before `to`, as byte ranges of the file (nothing decoded or rewritten; the
 * fragments' own timestamps say where they lie), and what they hold. Only the boxes' headers and
 * the fragments' moof boxes are read, never the pictures. The whole file when the span covers it,
 * when it is not fragmented MP4 that parses, or when cutting would save nothing.
 */
export async function filePart(path: string, start: number, end: number, from: number, to: number): Promise<FilePart> {
  const fh = await open(path, 'r');
  try {
    const length = (await fh.stat()).size;
    const whole: FilePart = { ranges: [{ from: 0, to: length }], bytes: length, start, end, whole: true };
    const boxes = await topBoxes(fh, length);
    const firstMoof = boxes.findIndex((b) => b.type === 'moof');
    if (firstMoof <= 0) return whole;
    // Boxes before a moof (styp, prft…) belong to its fragment; the init segment ends where the first fragment begins.
    let fragmentFrom = firstMoof;
    while (fragmentFrom > 0 && ['styp', 'prft', 'sidx', 'emsg'].includes(boxes[fragmentFrom - 1]!.type)) fragmentFrom -= 1;
    const initEnd = boxes[fragmentFrom]!.at;
    let reader: MoofReader;
    try {
      reader = new MoofReader(await readRange(fh, 0, initEnd));
    } catch {
      return whole;
    }
    const fragments: (FragmentInfo & ByteRange)[] = [];
    let opened = initEnd;
    for (const box of boxes.slice(fragmentFrom)) {
      if (box.type === 'moof') {
        if (box.size > MAX_MOOF_BYTES) return whole;
        try {
          fragments.push({ ...reader.read(await readRange(fh, box.at, box.at + box.size)), from: opened, to: box.at + box.size });
        } catch {
          return whole;
        }
      } else if (box.type === 'mdat') {
        const last = fragments.at(-1);
        if (last && last.to === box.at) last.to = box.at + box.size;
        opened = box.at + box.size;
      }
    }
    // A moof whose mdat never came (a file cut short) is no fragment.
    while (fragments.length > 0 && !boxes.some((b) => b.type === 'mdat' && b.at + b.size === fragments.at(-1)!.to)) fragments.pop();
    const first = fragments[0];
    if (!first) return whole;
    const { timescale } = reader.init;
    const timeOf = (f: FragmentInfo) => start + ((f.baseMediaDecodeTime - first.baseMediaDecodeTime) * 1000) / timescale;
    const definitionOf = (picked: readonly FragmentInfo[], bytes: number): VideoDefinition | undefined => {
      const ticks = picked.reduce((n, f) => n + f.duration, 0);
      const durationMs = (ticks * 1000) / timescale;
      if (durationMs <= 0) return undefined;
      const pictures = picked.reduce((n, f) => n + f.sampleCount, 0);
      return {
        width: reader.init.width,
        height: reader.init.height,
        frameRate: Math.round((pictures / (durationMs / 1000)) * 100) / 100,
        bitrateKbps: Math.max(1, Math.round((bytes * 8) / durationMs)),
        codec: reader.init.codec,
        durationMs: Math.round(durationMs),
      };
    };
    const everything = definitionOf(fragments, length);
    if (from <= start && to >= end) return { ...whole, ...(everything ? { definition: everything } : {}) };
    let from_ = 0;
    for (let i = 0; i < fragments.length; i++) {
      const f = fragments[i]!;
      if (timeOf(f) > from) break;
      if (f.keyframe) from_ = i;
    }
    let to_ = from_;
    while (to_ + 1 < fragments.length && timeOf(fragments[to_ + 1]!) < to) to_ += 1;
    const picked = fragments.slice(from_, to_ + 1);
    if (picked.length === fragments.length) return { ...whole, ...(everything ? { definition: everything } : {}) };
    const last = picked.at(-1)!;
    const ranges = [
      { from: 0, to: initEnd },
      { from: picked[0]!.from, to: last.to },
    ];
    const bytes = ranges.reduce((n, r) => n + r.to - r.from, 0);
    const definition = definitionOf(picked, bytes);
    return {
      ranges,
      bytes,
      start: Math.round(timeOf(picked[0]!)),
      end: Math.min(end, Math.round(timeOf(last) + (last.duration * 1000) / timescale)),
      whole: false,
      ...(definition ? { definition } : {}),
    };
  } finally {
    await fh.close();
  }
}
