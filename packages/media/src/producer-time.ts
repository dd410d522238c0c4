/**
 * The producer reference time box (`prft`, ISO/IEC 14496-12 §8.16.5): before a fragment's moof, the
 * wall-clock time (NTP format) at which the fragment's first sample left the encoder, and its media
 * time. The ship agent writes one before each live picture; the player reads it to tell how old
 * the picture on screen is — the way the live-video benchmark measures glass to glass — and drops
 * it before the bytes reach Media Source Extensions.
 */
import { boxes, fourcc, viewOf } from './boxes.ts';
import { concatBytes, fullBox, u32s } from './writer.ts';

/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_UNIX_OFFSET_S = 2_208_988_800n;
/** prft flags: the time is when the sample was output from the encoder. */
export const PRFT_ENCODER_OUTPUT = 1;

export interface ProducerTime {
  trackId: number;
  /** Wall-clock ms since the Unix epoch (the producer's clock). */
  wallMs: number;
  /** The fragment's media time, in the track's timescale. */
  mediaTime: number;
  flags: number;
}

/** A prft box (version 1: 64-bit media time). */
export function producerTimeBox(o: { trackId: number; wallMs: number; mediaTime: number; flags?: number }): Uint8Array {
  const ntp = new Uint8Array(16);
  const view = new DataView(ntp.buffer);
  const ms = BigInt(Math.round(o.wallMs));
  const seconds = ms / 1000n + NTP_UNIX_OFFSET_S;
  const fraction = ((ms % 1000n) << 32n) / 1000n;
  view.setUint32(0, Number(seconds & 0xffff_ffffn));
  view.setUint32(4, Number(fraction));
  view.setBigUint64(8, BigInt(Math.round(o.mediaTime)));
  return fullBox('prft', 1, o.flags ?? PRFT_ENCODER_OUTPUT, u32s(o.trackId), ntp);
}

/** The fragment with a prft box in front. */
export function withProducerTime(fragment: Uint8Array, time: { trackId: number; wallMs: number; mediaTime: number; flags?: number }): Uint8Array {
  return concatBytes([producerTimeBox(time), fragment]);
}

/** The prft box before the fragment's moof, if it has one. */
export function readProducerTime(fragment: Uint8Array): ProducerTime | undefined {
  for (const b of boxes(fragment)) {
    if (b.type === 'moof' || b.type === 'mdat') return undefined;
    if (b.type !== 'prft') continue;
    const view = viewOf(fragment);
    const version = fragment[b.body] ?? 0;
    const need = 4 + 4 + 8 + (version === 1 ? 8 : 4);
    if (b.end - b.body < need) return undefined;
    const flags = view.getUint32(b.body) & 0xff_ffff;
    const trackId = view.getUint32(b.body + 4);
    const seconds = BigInt(view.getUint32(b.body + 8));
    const fraction = BigInt(view.getUint32(b.body + 12));
    const wallMs = Number((seconds - NTP_UNIX_OFFSET_S) * 1000n + ((fraction * 1000n + (1n << 31n)) >> 32n));
    const mediaTime = version === 1 ? Number(view.getBigUint64(b.body + 16)) : view.getUint32(b.body + 16);
    return { trackId, wallMs, mediaTime, flags };
  }
  return undefined;
}

/** The fragment without a leading prft box (what Media Source Extensions is given). */
export function withoutProducerTime<B extends ArrayBufferLike>(fragment: Uint8Array<B>): Uint8Array<B> {
  if (fragment.length < 8 || fourcc(fragment, 4) !== 'prft') return fragment;
  const size = viewOf(fragment).getUint32(0);
  return size >= 8 && size <= fragment.length ? fragment.subarray(size) : fragment;
}
