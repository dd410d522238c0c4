import { ByteQueue } from '@ship-cctv/media';
import { asBuffer } from './fmp4.ts';

/**
 * Incremental FLV reader (Adobe FLV file format, version 10.1, annex E): the file header, then
 * tags, each whole in the stream as soon as the muxer wrote it — [type][data size:3][timestamp:3]
 * [timestamp extended:1][stream id:3][data][previous tag size:4]. Unlike MP4's moof, an FLV tag
 * needs nothing from the next frame, which is why the encoder writes FLV (see flv-packager.ts).
 *
 * Video tags of H.264 (codec id 7) and audio tags of AAC (sound format 10) are read into packets;
 * other audio and script tags are reported by type only. Memory: at most one unfinished tag.
 */

export type FlvVideoPacket =
  | {
      kind: 'config';
      /** AVCDecoderConfigurationRecord. */
      record: Buffer;
      timestampMs: number;
    }
  | {
      kind: 'frame';
      /** NAL units, each behind its length (the size the configuration record gives). */
      data: Buffer;
      keyframe: boolean;
      /** Decode time in ms (32 bits, as the tag header gives it). */
      timestampMs: number;
      /** Presentation − decode time in ms (0 without B-frames). */
      compositionMs: number;
    }
  | { kind: 'end'; timestampMs: number };

export type FlvAudioPacket =
  | {
      kind: 'audioConfig';
      /** AudioSpecificConfig (ISO/IEC 14496-3). */
      config: Buffer;
      timestampMs: number;
    }
  | {
      kind: 'audio';
      /** One raw AAC frame. */
      data: Buffer;
      timestampMs: number;
    };

export type FlvItem = FlvVideoPacket | FlvAudioPacket | { kind: 'other'; tagType: number };

const HEADER_BYTES = 9;
const TAG_HEADER_BYTES = 11;
const PREVIOUS_TAG_SIZE_BYTES = 4;
const TAG_AUDIO = 8;
const TAG_VIDEO = 9;
const TAG_SCRIPT = 18;
const CODEC_AVC = 7;
const SOUND_AAC = 10;
const FRAME_KEY = 1;

/** A tag bigger than this is taken as a broken stream (one 1080p keyframe is well under 2 MiB). */
export const MAX_TAG_BYTES = 16 * 1024 * 1024;

export class FlvReader {
  private readonly bytes = new ByteQueue();
  private headerDone = false;

  /** Bytes held waiting for the rest of a tag. */
  get pendingBytes(): number {
    return this.bytes.length;
  }

  /** Feeds bytes in stream order; returns the tags they complete. Throws on a malformed stream. */
  push(chunk: Uint8Array): FlvItem[] {
    this.bytes.push(chunk);
    const out: FlvItem[] = [];
    if (!this.headerDone) {
      if (this.bytes.length < HEADER_BYTES) return out;
      const head = asBuffer(this.bytes.peek(HEADER_BYTES));
      if (head.toString('latin1', 0, 3) !== 'FLV') throw new Error('not an FLV stream');
      const dataOffset = head.readUInt32BE(5);
      if (dataOffset < HEADER_BYTES || dataOffset > 1024) throw new Error(`FLV header size ${dataOffset} is invalid`);
      if (this.bytes.length < dataOffset + PREVIOUS_TAG_SIZE_BYTES) return out;
      this.bytes.take(dataOffset + PREVIOUS_TAG_SIZE_BYTES);
      this.headerDone = true;
    }
    for (;;) {
      if (this.bytes.length < TAG_HEADER_BYTES) return out;
      const head = asBuffer(this.bytes.peek(TAG_HEADER_BYTES));
      const tagType = (head[0] as number) & 0x1f;
      if ((head[0] as number) & 0x20) throw new Error('encrypted FLV tags are not supported');
      const dataSize = head.readUIntBE(1, 3);
      if (dataSize > MAX_TAG_BYTES) throw new Error(`FLV tag of ${dataSize} bytes exceeds ${MAX_TAG_BYTES}`);
      if (tagType !== TAG_AUDIO && tagType !== TAG_VIDEO && tagType !== TAG_SCRIPT) throw new Error(`malformed FLV stream: tag type ${tagType}`);
      const total = TAG_HEADER_BYTES + dataSize + PREVIOUS_TAG_SIZE_BYTES;
      if (this.bytes.length < total) return out;
      const tag = asBuffer(this.bytes.take(total));
      if (tag.readUInt32BE(TAG_HEADER_BYTES + dataSize) !== TAG_HEADER_BYTES + dataSize) {
        throw new Error('malformed FLV stream: previous tag size does not match');
      }
      // Timestamp: 24 bits, then its upper 8 bits.
      const timestampMs = (((tag[7] as number) << 24) >>> 0) + tag.readUIntBE(4, 3);
      const data = tag.subarray(TAG_HEADER_BYTES, TAG_HEADER_BYTES + dataSize);
      out.push(tagType === TAG_VIDEO ? videoPacket(data, timestampMs) : tagType === TAG_AUDIO ? audioPacket(data, timestampMs) : { kind: 'other', tagType });
    }
  }
}

/** VIDEODATA with AVCVIDEOPACKET: [frame type:4 | codec id:4][AVC packet type][composition time:SI24][data]. */
function videoPacket(data: Buffer, timestampMs: number): FlvItem {
  if (data.length < 5) throw new Error(`FLV video tag of ${data.length} bytes is too short`);
  const codecId = (data[0] as number) & 0x0f;
  if (codecId !== CODEC_AVC) throw new Error(`FLV video codec ${codecId} is not H.264`);
  const frameType = (data[0] as number) >> 4;
  const packetType = data[1] as number;
  const compositionMs = data.readIntBE(2, 3);
  const payload = data.subarray(5);
  if (packetType === 0) return { kind: 'config', record: payload, timestampMs };
  if (packetType === 1) return { kind: 'frame', data: payload, keyframe: frameType === FRAME_KEY, timestampMs, compositionMs };
  if (packetType === 2) return { kind: 'end', timestampMs };
  throw new Error(`FLV AVC packet type ${packetType} is unknown`);
}

/** AUDIODATA: [sound format:4 | rate:2 | size:1 | type:1][AAC packet type][data]; other formats are 'other'. */
function audioPacket(data: Buffer, timestampMs: number): FlvItem {
  if (data.length < 2 || (data[0] as number) >> 4 !== SOUND_AAC) return { kind: 'other', tagType: TAG_AUDIO };
  const payload = data.subarray(2);
  return data[1] === 0 ? { kind: 'audioConfig', config: payload, timestampMs } : { kind: 'audio', data: payload, timestampMs };
}
