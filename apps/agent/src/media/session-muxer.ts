import { hevcParameterSets, initSegment, mediaFragment, readHevcSps } from '@ship-cctv/media';
import type { VideoPacket } from './access-unit.ts';
import { parseAvcConfig } from './avc.ts';
import type { SessionCodec } from './camera-reader.ts';
import { flvConfigTag, flvHeader, flvPictureTag } from './flv-writer.ts';

/**
 * The container a camera session's pictures travel in to the ffmpeg processes that consume them
 * (the recorder, transcoders, pictures) and to a copied live stream: FLV for H.264 (ffmpeg's FLV
 * demuxer keeps each picture whole and reads it the moment it arrives), `hvc1` fragmented MP4 for
 * H.265, which Debian's ffmpeg 5.1 cannot carry in FLV — one fragment per picture, the parameter
 * sets in the init segment's hvcC.
 */

export interface SessionConfig {
  codec: SessionCodec;
  /** avcC or hvcC payload. */
  record: Buffer;
  /** Display size from the SPS; undefined when it could not be read. */
  width: number | undefined;
  height: number | undefined;
}

/** Reads a configuration record of either codec; throws on one too short or unreadable. */
export function sessionConfig(record: Buffer, codec: SessionCodec): SessionConfig {
  if (codec === 'h264') {
    const avc = parseAvcConfig(record);
    return { codec, record, width: avc.width, height: avc.height };
  }
  const sps = hevcParameterSets(record).find((n) => (((n[0] ?? 0) >> 1) & 0x3f) === 33);
  if (!sps) throw new Error('the H.265 configuration has no SPS');
  let size: { width: number; height: number } | undefined;
  try {
    size = readHevcSps(sps);
  } catch {
    size = undefined;
  }
  return { codec, record, width: size?.width, height: size?.height };
}

/** ffmpeg's name of the container (`-f`). */
export type SessionContainer = 'flv' | 'mp4';

export const containerOf = (codec: SessionCodec): SessionContainer => (codec === 'h264' ? 'flv' : 'mp4');

export interface SessionMuxer {
  readonly container: SessionContainer;
  /** Bytes that open the stream (the FLV header; nothing for MP4, whose init segment is the config). */
  start(): Buffer;
  /** A (new) configuration, at decode time `ms` of this stream. */
  config(config: SessionConfig, ms: number): Buffer;
  /** A picture at decode time `timestampMs` of this stream (from 0). */
  picture(p: Pick<VideoPacket, 'data' | 'keyframe' | 'timestampMs' | 'compositionMs'>): Buffer;
}

/** FLV for H.264. */
export function flvMuxer(): SessionMuxer {
  return {
    container: 'flv',
    start: () => flvHeader(),
    config: (c, ms) => flvConfigTag(c.record, ms),
    picture: (p) => flvPictureTag(p),
  };
}

/** 90 kHz: exact for ms and for the usual frame rates. */
const TIMESCALE = 90_000;
const TICKS_PER_MS = TIMESCALE / 1000;

/**
 * hvc1 fragmented MP4: an init segment per configuration, a fragment per picture. A fragment's
 * duration is the gap from the previous picture (`frameMs` for the first): nothing waits for the
 * next picture.
 */
export function hvc1Muxer(frameMs: () => number): SessionMuxer {
  let sequence = 0;
  let lastMs: number | undefined;
  let lastGap: number | undefined;
  return {
    container: 'mp4',
    start: () => Buffer.alloc(0),
    config(c) {
      if (c.width === undefined || c.height === undefined) throw new Error('picture size unknown: the H.265 SPS is unreadable');
      return Buffer.from(initSegment({ hvcConfig: c.record, width: c.width, height: c.height, timescale: TIMESCALE }));
    },
    picture(p) {
      if (lastMs !== undefined && p.timestampMs > lastMs) lastGap = p.timestampMs - lastMs;
      lastMs = p.timestampMs;
      const bytes = mediaFragment({
        sequence: ++sequence,
        baseMediaDecodeTime: Math.round(p.timestampMs * TICKS_PER_MS),
        duration: Math.max(1, Math.round((lastGap ?? frameMs()) * TICKS_PER_MS)),
        keyframe: p.keyframe,
        compositionOffset: Math.round(p.compositionMs * TICKS_PER_MS),
        data: p.data,
      });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}

export function muxerFor(codec: SessionCodec, frameMs: () => number): SessionMuxer {
  return codec === 'h264' ? flvMuxer() : hvc1Muxer(frameMs);
}
