import { Fmp4Splitter, type MediaFragment } from '@ship-cctv/media';

/** What of a recorded file to send: its bytes, and the span they hold (epoch ms). */
export interface FilePart {
  bytes: Uint8Array;
  start: number;
  end: number;
}

/**
 * The part of a recorded segment file (fragmented MP4, `start`–`end` on the wall clock) that covers
 * [from, to): its init segment and the whole fragments from the keyframe at or before `from` to the
 * last one beginning before `to`, bytes as they are in the file (nothing decoded or rewritten; the
 * fragments' own timestamps say where they lie). The whole file when the span covers it, when it is
 * not fragmented MP4 that parses, or when cutting would save nothing.
 */
export function filePart(file: Uint8Array, start: number, end: number, from: number, to: number): FilePart {
  const whole = { bytes: file, start, end };
  if (from <= start && to >= end) return whole;
  let init: { data: Uint8Array; timescale: number } | undefined;
  const fragments: MediaFragment[] = [];
  try {
    const splitter = new Fmp4Splitter();
    for (const unit of splitter.push(file)) {
      if (unit.kind === 'init') init ??= unit;
      else if (unit.kind === 'fragment') fragments.push(unit);
    }
    splitter.end();
  } catch {
    return whole;
  }
  const first = fragments[0];
  if (!init || !first) return whole;
  const { timescale } = init;
  const timeOf = (f: MediaFragment) => start + ((f.baseMediaDecodeTime - first.baseMediaDecodeTime) * 1000) / timescale;
  let from_ = 0;
  for (let i = 0; i < fragments.length; i++) {
    const f = fragments[i]!;
    if (timeOf(f) > from) break;
    if (f.keyframe) from_ = i;
  }
  let to_ = from_;
  while (to_ + 1 < fragments.length && timeOf(fragments[to_ + 1]!) < to) to_ += 1;
  const picked = fragments.slice(from_, to_ + 1);
  if (picked.length === fragments.length) return whole;
  const last = picked.at(-1)!;
  const bytes = new Uint8Array(init.data.length + picked.reduce((n, f) => n + f.data.length, 0));
  bytes.set(init.data);
  let at = init.data.length;
  for (const f of picked) {
    bytes.set(f.data, at);
    at += f.data.length;
  }
  return { bytes, start: Math.round(timeOf(picked[0]!)), end: Math.min(end, Math.round(timeOf(last) + (last.duration * 1000) / timescale)) };
}
