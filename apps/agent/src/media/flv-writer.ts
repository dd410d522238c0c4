/**
 * Writes FLV (Adobe FLV 10.1, annex E) of one H.264 video track: what a camera session hands its
 * consumers that are ffmpeg processes (the recorder, a transcoding live stream) on their stdin,
 * and its copied live streams through the same packager as an encoder's output. ffmpeg's FLV
 * demuxer takes every tag as a whole picture (it does not re-cut H.264 into pictures, as its RTSP
 * and raw H.264 readers do), so the pictures the session joined stay joined.
 */

const TAG_VIDEO = 9;
const CODEC_AVC = 7;

/** The file header and the first "previous tag size" (0). Video only. */
export function flvHeader(): Buffer {
  const b = Buffer.alloc(13);
  b.write('FLV', 0, 'latin1');
  b[3] = 1; // version
  b[4] = 0x01; // video present
  b.writeUInt32BE(9, 5); // header size
  // bytes 9–12: PreviousTagSize0 = 0
  return b;
}

function videoTag(timestampMs: number, body: Buffer): Buffer {
  const ts = Math.max(0, Math.round(timestampMs)) >>> 0;
  const head = Buffer.alloc(11);
  head[0] = TAG_VIDEO;
  head.writeUIntBE(body.length, 1, 3);
  head.writeUIntBE(ts & 0xffffff, 4, 3);
  head[7] = (ts >>> 24) & 0xff; // timestamp extended
  // bytes 8–10: stream id 0
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(11 + body.length, 0);
  return Buffer.concat([head, body, tail]);
}

/** The AVC sequence header: the AVCDecoderConfigurationRecord. */
export function flvConfigTag(record: Buffer, timestampMs = 0): Buffer {
  const head = Buffer.from([(1 << 4) | CODEC_AVC, 0, 0, 0, 0]);
  return videoTag(timestampMs, Buffer.concat([head, record]));
}

/** One picture: NAL units behind their lengths, decode time and composition offset in ms. */
export function flvPictureTag(p: { data: Buffer; keyframe: boolean; timestampMs: number; compositionMs: number }): Buffer {
  const head = Buffer.alloc(5);
  head[0] = ((p.keyframe ? 1 : 2) << 4) | CODEC_AVC;
  head[1] = 1; // NALU
  head.writeIntBE(Math.round(p.compositionMs), 2, 3);
  return videoTag(p.timestampMs, Buffer.concat([head, p.data]));
}
