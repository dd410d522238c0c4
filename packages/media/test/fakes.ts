import { initSegment as writeInit, mediaFragment } from '../src/index.ts';

import { concatBytes } from '../src/index.ts';

export { box } from '../src/index.ts';
export const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

/** An H.264 init segment with the given timescale (parameter sets nobody decodes here). */
export function initSegment(timescale: number): Uint8Array {
  return writeInit({ avcConfig: Uint8Array.of(1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0), width: 320, height: 180, timescale });
}

/** One keyframe sample at `baseDecodeTime` (64-bit tfdt). */
export function fragment(baseDecodeTime: number, payload = [1, 2, 3]): Uint8Array {
  return mediaFragment({ sequence: 1, baseMediaDecodeTime: baseDecodeTime, duration: 1, keyframe: true, data: Uint8Array.from(payload) });
}
