/**
 * AAC-LC facts the packager needs: the AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1) of a stream
 * whose rate and channels we chose ourselves, so the init segment can name the sound track before
 * the encoder's first sound frame arrives (the picture never waits for it).
 */

/** Samples per AAC-LC frame. */
export const AAC_FRAME_SAMPLES = 1024;

/**
 * ffmpeg's native AAC encoder puts one frame of priming samples before the sound; the FLV muxer
 * shifts the stream so that frame starts at 0 ms. The sound's own time is the tag's time minus this.
 */
export const AAC_PRIMING_SAMPLES = 1024;

const SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** The 2-byte AudioSpecificConfig of AAC-LC (object type 2) at a standard rate, 1–7 channels. */
export function aacLcConfig(sampleRate: number, channels: number): Buffer {
  const index = SAMPLE_RATES.indexOf(sampleRate);
  if (index < 0) throw new Error(`${sampleRate} Hz is not an AAC sampling rate`);
  if (!Number.isInteger(channels) || channels < 1 || channels > 7) throw new Error(`${channels} channels is not an AAC channel configuration`);
  const bits = (2 << 11) | (index << 7) | (channels << 3);
  return Buffer.from([bits >> 8, bits & 0xff]);
}

/**
 * Whether an encoder's AudioSpecificConfig describes the same sound as `expected` (a plain 2-byte
 * AAC-LC config, aacLcConfig). ffmpeg's AAC encoder appends an explicit "no SBR" sync extension
 * (0x2B7, object type 5, flag 0: 14 08 56 E5 00 for 16 kHz mono): the same stream for every
 * decoder, so it must not cost a new init segment.
 */
export function sameAacConfig(expected: Uint8Array, actual: Uint8Array): boolean {
  if (actual.length < 2 || expected.length !== 2 || actual[0] !== expected[0] || actual[1] !== expected[1]) return false;
  if (actual.length === 2) return true;
  // 11 bits sync type, 5 bits extension object type, 1 bit SBR present; then padding (zero bits).
  const bits = actual.length >= 5 ? ((actual[2] as number) << 16) | ((actual[3] as number) << 8) | (actual[4] as number) : -1;
  const sync = bits >>> 13;
  const extensionType = (bits >>> 8) & 0x1f;
  const sbrPresent = (bits >>> 7) & 1;
  return actual.length === 5 && sync === 0x2b7 && extensionType === 5 && sbrPresent === 0 && (bits & 0x7f) === 0;
}
