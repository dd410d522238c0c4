/**
 * H.264 access units from a camera's packets: every slice of one picture in one sample, with the
 * picture's access unit delimiter, parameter sets and SEI before its first slice (ITU-T H.264
 * 7.4.1.2.3), each parameter set once.
 *
 * Why: a camera that cuts its pictures into several slices (IP cameras encoding on several cores)
 * and repeats SPS/PPS before every IDR slice — as GStreamer's RTP payloader and many cameras do —
 * reaches ffmpeg's H.264 parser, which takes each SPS as the start of a new picture. `-c copy` then
 * hands on a keyframe as two packets with one timestamp: in MP4 two samples (the second stamped
 * +1 tick), half a picture each, which browsers decode as a corrupt keyframe and drop the GOP.
 * Packets of one decode time are one picture, so they are joined here.
 *
 * When is a picture complete? The joiner learns how many slices a picture has from the pictures it
 * has closed and closes one the moment that many slices are in; a packet with another decode time,
 * or a slice that starts a new picture (first_mb_in_slice = 0), closes it too, as does `flush()` at
 * the end of the stream. No timer: ffmpeg's parser hands on the rest of a split picture only when
 * the next picture arrives (it ends a picture when it sees the next one begin), so a wait of a few
 * ms would cut it in two again.
 */

export interface VideoPacket {
  /** NAL units, each behind a big-endian length of `nalLengthSize` bytes. */
  data: Buffer;
  keyframe: boolean;
  /** Decode time in ms. */
  timestampMs: number;
  /** Presentation − decode time in ms. */
  compositionMs: number;
  /** When the camera captured it, by the camera's clock (epoch ms), where the camera says so (RTCP sender reports). */
  capturedAt?: number;
}

export const NAL_SLICE = 1;
export const NAL_IDR = 5;
export const NAL_SEI = 6;
export const NAL_SPS = 7;
export const NAL_PPS = 8;
export const NAL_AUD = 9;

/** The NAL units of a length-prefixed sample; throws when a length runs past the end. */
export function splitNals(data: Buffer, lengthSize = 4): Buffer[] {
  const nals: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    if (at + lengthSize > data.length) throw new Error('H.264 sample ends inside a NAL length');
    const len = data.readUIntBE(at, lengthSize);
    at += lengthSize;
    if (at + len > data.length) throw new Error(`H.264 NAL of ${len} bytes runs past the sample`);
    nals.push(data.subarray(at, at + len));
    at += len;
  }
  return nals;
}

export const nalType = (nal: Buffer) => ((nal[0] ?? 0) & 0x1f);
export const isSlice = (nal: Buffer) => {
  const t = nalType(nal);
  return t >= 1 && t <= 5;
};
/** first_mb_in_slice = 0: ue(v) 0 is the single bit 1 right after the NAL header. */
export const startsPicture = (nal: Buffer) => isSlice(nal) && ((nal[1] ?? 0) & 0x80) !== 0;

export function joinNals(nals: readonly Buffer[], lengthSize: number): Buffer {
  const parts: Buffer[] = [];
  for (const nal of nals) {
    const len = Buffer.alloc(lengthSize);
    len.writeUIntBE(nal.length, 0, lengthSize);
    parts.push(len, nal);
  }
  return Buffer.concat(parts);
}

/**
 * One picture's NAL units in decoding order: AUD first, then SPS, PPS and SEI (duplicates of a
 * parameter set dropped), then the slices in their order, then whatever else (end of sequence …).
 */
export function orderAccessUnit(nals: readonly Buffer[]): Buffer[] {
  let aud: Buffer | undefined;
  const params: Buffer[] = [];
  const sei: Buffer[] = [];
  const slices: Buffer[] = [];
  const rest: Buffer[] = [];
  for (const nal of nals) {
    const t = nalType(nal);
    if (t === NAL_AUD) aud ??= nal;
    else if (t === NAL_SPS || t === NAL_PPS) {
      if (!params.some((p) => p.equals(nal))) params.push(nal);
    } else if (t === NAL_SEI) sei.push(nal);
    else if (isSlice(nal)) slices.push(nal);
    else rest.push(nal);
  }
  // SPS before PPS: a PPS refers to its SPS.
  params.sort((a, b) => nalType(a) - nalType(b));
  return [...(aud ? [aud] : []), ...params, ...sei, ...slices, ...rest];
}

interface Pending {
  nals: Buffer[];
  slices: number;
  keyframe: boolean;
  timestampMs: number;
  compositionMs: number;
}

export class AccessUnitJoiner {
  private pending: Pending | undefined;
  /** Slices per picture seen last (0 = not known yet). */
  private slicesPerPicture = 0;

  constructor(private readonly lengthSize = 4) {}

  /** A picture is waiting for more of its slices. */
  get holding(): boolean {
    return this.pending !== undefined;
  }

  /** Feeds one packet; returns the pictures it completes (at most two). */
  push(p: VideoPacket): VideoPacket[] {
    const out: VideoPacket[] = [];
    const nals = splitNals(p.data, this.lengthSize);
    const firstSlice = nals.find(isSlice);
    const cur = this.pending;
    if (cur && (p.timestampMs !== cur.timestampMs || (firstSlice !== undefined && startsPicture(firstSlice) && cur.slices > 0))) {
      // Another picture: the one held is complete whatever its slice count.
      this.slicesPerPicture = cur.slices;
      out.push(this.close(cur));
    }
    const held = this.pending ?? { nals: [], slices: 0, keyframe: false, timestampMs: p.timestampMs, compositionMs: p.compositionMs };
    held.nals.push(...nals);
    held.slices += nals.filter(isSlice).length;
    held.keyframe ||= p.keyframe || nals.some((n) => nalType(n) === NAL_IDR);
    this.pending = held;
    if (this.slicesPerPicture > 0 && held.slices >= this.slicesPerPicture) out.push(this.close(held));
    return out;
  }

  /** Closes the picture held, if any (no more of its slices came in time). */
  flush(): VideoPacket[] {
    const cur = this.pending;
    if (!cur) return [];
    if (cur.slices > 0) this.slicesPerPicture = cur.slices;
    return [this.close(cur)];
  }

  private close(p: Pending): VideoPacket {
    this.pending = undefined;
    return { data: joinNals(orderAccessUnit(p.nals), this.lengthSize), keyframe: p.keyframe, timestampMs: p.timestampMs, compositionMs: p.compositionMs };
  }
}
