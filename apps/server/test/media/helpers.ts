/**
 * Helpers for the media-core tests: real fMP4 made by ffmpeg, ffprobe's view of a file, a seeded
 * chunker, hand-built boxes for the cases ffmpeg never writes, and a consumer whose socket buffer
 * the test controls.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { HubFragment, HubInit, MediaConsumer, SentUnit } from '../../src/core/media/stream-hub.ts';

const run = promisify(execFile);

export interface ClipSpec {
  name: string;
  width: number;
  height: number;
  profile: 'baseline' | 'main' | 'high';
  seconds?: number;
  rate?: number;
  gop?: number;
}

/** Encode a test pattern as the agent does: one fragment per frame, a keyframe every `gop` frames. */
export async function makeClip(dir: string, spec: ClipSpec): Promise<string> {
  const file = join(dir, `${spec.name}.mp4`);
  const rate = spec.rate ?? 10;
  const gop = spec.gop ?? 10;
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${spec.width}x${spec.height}:rate=${rate}`,
    '-t', String(spec.seconds ?? 3),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency',
    '-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0',
    '-pix_fmt', 'yuv420p', '-profile:v', spec.profile, '-flags:v', '+global_header',
    '-movflags', '+frag_every_frame+empty_moov+default_base_moof',
    '-f', 'mp4', file,
  ]);
  return file;
}

export interface ProbedStream {
  profile: string;
  level: number;
  width: number;
  height: number;
  timeBase: string;
  frames: number;
}

/** ffprobe's view of the first video stream, decoding every frame to count them. */
export async function probe(file: string): Promise<ProbedStream> {
  const { stdout } = await run('ffprobe', [
    '-v', 'error', '-count_frames', '-select_streams', 'v:0',
    '-show_entries', 'stream=profile,level,width,height,time_base,nb_read_frames',
    '-of', 'json', file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: Array<Record<string, string | number>> };
  const s = parsed.streams[0];
  if (!s) throw new Error(`ffprobe found no video stream in ${file}`);
  return {
    profile: String(s.profile),
    level: Number(s.level),
    width: Number(s.width),
    height: Number(s.height),
    timeBase: String(s.time_base),
    frames: Number(s.nb_read_frames),
  };
}

export async function writeParts(file: string, parts: Uint8Array[]): Promise<string> {
  await writeFile(file, concatBytes(parts));
  return file;
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** mulberry32: small, seeded, good enough to pick chunk sizes reproducibly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Slice `data` into random pieces: a quarter of them 1 byte, the rest up to `max` bytes. */
export function randomChunks(data: Uint8Array, seed: number, max = 5000): Uint8Array[] {
  const rnd = seededRandom(seed);
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < data.length) {
    const n = rnd() < 0.25 ? 1 : 1 + Math.floor(rnd() * max);
    out.push(data.slice(at, at + n)); // copies, as separate network frames would be
    at += n;
  }
  return out;
}

/** Top-level boxes of a complete buffer: [type, start, size]. */
export function topLevelBoxes(data: Uint8Array): Array<{ type: string; start: number; size: number }> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: Array<{ type: string; start: number; size: number }> = [];
  let at = 0;
  while (at + 8 <= data.length) {
    let size = view.getUint32(at);
    if (size === 1) size = Number(view.getBigUint64(at + 8));
    out.push({ type: new TextDecoder().decode(data.subarray(at + 4, at + 8)), start: at, size });
    at += size;
  }
  return out;
}

// -------------------------------------------------------------------------------------------------
// Hand-built boxes.

export function u8(n: number): Uint8Array {
  return Uint8Array.of(n & 0xff);
}
export function u16(n: number): Uint8Array {
  const b = new Uint8Array(2);
  new DataView(b.buffer).setUint16(0, n);
  return b;
}
export function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0);
  return b;
}
export function u64(n: number | bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}
export function zeros(n: number): Uint8Array {
  return new Uint8Array(n);
}

/** A box with a 32-bit size, or with size 1 and a 64-bit largesize when `large`. */
export function box(type: string, parts: Uint8Array[], large = false): Uint8Array {
  const body = concatBytes(parts);
  const typeBytes = new TextEncoder().encode(type);
  if (large) return concatBytes([u32(1), typeBytes, u64(16 + body.length), body]);
  return concatBytes([u32(8 + body.length), typeBytes, body]);
}

export function fullBox(type: string, version: number, flags: number, parts: Uint8Array[]): Uint8Array {
  return box(type, [u32(((version & 0xff) << 24) | (flags & 0xffffff)), ...parts]);
}

export interface SyntheticInit {
  width?: number;
  height?: number;
  /** Width/height written in tkhd (16.16); the sample entry's are used unless they are 0. */
  tkhdWidth?: number;
  tkhdHeight?: number;
  timescale?: number;
  trackId?: number;
  avc: [profile: number, constraints: number, level: number];
  entry?: string;
  trex?: { duration: number; flags: number };
  tkhdVersion?: 0 | 1;
}

/** ftyp + moov with one H.264 video track (and mvex/trex if given). */
export function syntheticInit(o: SyntheticInit): Uint8Array {
  const trackId = o.trackId ?? 1;
  const v1 = o.tkhdVersion === 1;
  const tkhd = fullBox('tkhd', v1 ? 1 : 0, 3, [
    v1 ? zeros(16) : zeros(8), // creation, modification
    u32(trackId),
    zeros(4),
    v1 ? zeros(8) : zeros(4), // duration
    zeros(8), u16(0), u16(0), u16(0), u16(0), // reserved, layer, alternate_group, volume, reserved
    zeros(36), // matrix
    u32((o.tkhdWidth ?? o.width ?? 0) * 65536),
    u32((o.tkhdHeight ?? o.height ?? 0) * 65536),
  ]);
  const mdhd = fullBox('mdhd', 0, 0, [zeros(8), u32(o.timescale ?? 90000), zeros(4), zeros(4)]);
  const hdlr = fullBox('hdlr', 0, 0, [zeros(4), new TextEncoder().encode('vide'), zeros(12), u8(0)]);
  const [profile, constraints, level] = o.avc;
  const avcC = box('avcC', [u8(1), u8(profile), u8(constraints), u8(level), u8(0xff), u8(0xe0)]);
  const entry = box(o.entry ?? 'avc1', [
    zeros(6), u16(1), // SampleEntry: reserved, data_reference_index
    zeros(16), u16(o.width ?? 0), u16(o.height ?? 0),
    u32(0x00480000), u32(0x00480000), zeros(4), u16(1), zeros(32), u16(0x18), u16(0xffff),
    avcC,
  ]);
  const stsd = fullBox('stsd', 0, 0, [u32(1), entry]);
  const stbl = box('stbl', [stsd]);
  const minf = box('minf', [stbl]);
  const mdia = box('mdia', [mdhd, hdlr, minf]);
  const trak = box('trak', [tkhd, mdia]);
  const moovParts = [fullBox('mvhd', 0, 0, [zeros(96)]), trak];
  if (o.trex) {
    moovParts.push(box('mvex', [fullBox('trex', 0, 0, [u32(trackId), u32(1), u32(o.trex.duration), u32(0), u32(o.trex.flags)])]));
  }
  return concatBytes([box('ftyp', [new TextEncoder().encode('isom'), u32(512), new TextEncoder().encode('isomiso6')]), box('moov', moovParts)]);
}

export interface SyntheticFragment {
  sequence: number;
  trackId?: number;
  decodeTime: number;
  /** tfdt version 1 (64-bit). */
  tfdt64?: boolean;
  tfhd?: { baseDataOffset?: number; sampleDescriptionIndex?: number; defaultDuration?: number; defaultSize?: number; defaultFlags?: number };
  trun: { count: number; firstFlags?: number; durations?: number[]; flags?: number[] };
  mdat?: Uint8Array;
  prefix?: Uint8Array[];
  largeMdat?: boolean;
}

export const SYNC = 0x02000000;
export const NON_SYNC = 0x01010000;

/** [prefix…] + moof + mdat for one track. */
export function syntheticFragment(f: SyntheticFragment): Uint8Array {
  let tfhdFlags = 0x020000; // default-base-is-moof
  const tfhdFields: Uint8Array[] = [u32(f.trackId ?? 1)];
  if (f.tfhd?.baseDataOffset !== undefined) {
    tfhdFlags = (tfhdFlags & ~0x020000) | 0x01;
    tfhdFields.push(u64(f.tfhd.baseDataOffset));
  }
  if (f.tfhd?.sampleDescriptionIndex !== undefined) {
    tfhdFlags |= 0x02;
    tfhdFields.push(u32(f.tfhd.sampleDescriptionIndex));
  }
  if (f.tfhd?.defaultDuration !== undefined) {
    tfhdFlags |= 0x08;
    tfhdFields.push(u32(f.tfhd.defaultDuration));
  }
  if (f.tfhd?.defaultSize !== undefined) {
    tfhdFlags |= 0x10;
    tfhdFields.push(u32(f.tfhd.defaultSize));
  }
  if (f.tfhd?.defaultFlags !== undefined) {
    tfhdFlags |= 0x20;
    tfhdFields.push(u32(f.tfhd.defaultFlags));
  }
  let trunFlags = 0;
  const trunFields: Uint8Array[] = [u32(f.trun.count)];
  if (f.trun.firstFlags !== undefined) {
    trunFlags |= 0x004;
    trunFields.push(u32(f.trun.firstFlags));
  }
  if (f.trun.durations) trunFlags |= 0x100;
  if (f.trun.flags) trunFlags |= 0x400;
  for (let i = 0; i < f.trun.count; i++) {
    const d = f.trun.durations?.[i];
    const fl = f.trun.flags?.[i];
    if (d !== undefined) trunFields.push(u32(d));
    if (fl !== undefined) trunFields.push(u32(fl));
  }
  const traf = box('traf', [
    fullBox('tfhd', 0, tfhdFlags, tfhdFields),
    fullBox('tfdt', f.tfdt64 ? 1 : 0, 0, [f.tfdt64 ? u64(f.decodeTime) : u32(f.decodeTime)]),
    fullBox('trun', 0, trunFlags, trunFields),
  ]);
  const moof = box('moof', [fullBox('mfhd', 0, 0, [u32(f.sequence)]), traf]);
  return concatBytes([...(f.prefix ?? []), moof, box('mdat', [f.mdat ?? Uint8Array.of(0, 0, 0, 1, 0x65)], f.largeMdat)]);
}

// -------------------------------------------------------------------------------------------------
// A consumer whose socket buffer the test sets.

export class FakeConsumer<I extends HubInit = HubInit, F extends HubFragment = HubFragment> implements MediaConsumer<I, F> {
  readonly received: Array<SentUnit<I, F>> = [];
  readonly bytes: Uint8Array[] = [];
  buffered = 0;
  /** Add each sent unit's size to `buffered` (a socket that never drains). */
  accumulate = false;
  dropped: string | undefined;
  onSend: ((unit: SentUnit<I, F>) => void) | undefined;

  constructor(readonly name = 'consumer') {}

  send(data: Uint8Array, unit: SentUnit<I, F>): void {
    this.received.push(unit);
    this.bytes.push(data);
    if (this.accumulate) this.buffered += data.length;
    this.onSend?.(unit);
  }
  bufferedAmount(): number {
    return this.buffered;
  }
  drop(reason: string): void {
    this.dropped = reason;
  }

  fragments(): F[] {
    return this.received.flatMap((u) => (u.kind === 'fragment' ? [u.fragment] : []));
  }
  kinds(): string {
    return this.received.map((u) => (u.kind === 'init' ? 'I' : u.fragment.keyframe ? 'K' : 'f')).join('');
  }
}
