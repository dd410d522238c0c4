import type { WholeFragments } from './whole-fragments.ts';

/** What a stretch of fragmented MP4 holds: its picture size, pictures a second, bits a second and codec. */
export interface VideoDefinition {
  width: number;
  height: number;
  /** Pictures a second over the fragments' duration, to 0.01. */
  frameRate: number;
  /** The file's bytes (init and fragments) over the fragments' duration, in kbit/s. */
  bitrateKbps: number;
  /** RFC 6381 codec of the video track, e.g. `avc1.42c01e`. */
  codec: string;
  durationMs: number;
}

/** The definition of whole fragmented MP4 (see wholeFragments), measured; undefined when it lasts no time. */
export function videoDefinition(media: WholeFragments): VideoDefinition | undefined {
  if (media.durationMs <= 0) return undefined;
  const seconds = media.durationMs / 1000;
  return {
    width: media.init.width,
    height: media.init.height,
    frameRate: Math.round((media.samples / seconds) * 100) / 100,
    bitrateKbps: Math.max(1, Math.round((media.bytes * 8) / seconds / 1000)),
    codec: media.init.codec,
    durationMs: media.durationMs,
  };
}

/** The codec family of an RFC 6381 codec string: `h264`, `hevc`, `av1`, or the entry itself. */
export function codecFamily(codec: string): string {
  const entry = codec.split('.')[0]?.toLowerCase() ?? '';
  if (entry === 'avc1' || entry === 'avc3') return 'h264';
  if (entry === 'hvc1' || entry === 'hev1') return 'hevc';
  if (entry === 'av01') return 'av1';
  return entry;
}
