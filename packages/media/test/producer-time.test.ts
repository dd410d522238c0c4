import { describe, expect, it } from 'vitest';
import { Fmp4Splitter, initSegment, mediaFragment, readBaseDecodeTime, readProducerTime, withProducerTime, withoutProducerTime } from '../src/index.ts';

const AVCC = Uint8Array.of(1, 0x4d, 0x40, 0x1f, 0xff, 0xe0, 0);
const init = initSegment({ avcConfig: AVCC, width: 64, height: 36, timescale: 90_000 });
const frame = (n: number) => mediaFragment({ sequence: n + 1, baseMediaDecodeTime: n * 9_000, duration: 9_000, keyframe: n === 0, data: new Uint8Array([0, 0, 0, 2, 0x65, n]) });

describe('producer reference time (prft)', () => {
  it('carries the wall clock to the ms and the media time, before the moof', () => {
    const wallMs = Date.UTC(2026, 10, 26, 13, 45, 12, 345);
    const stamped = withProducerTime(frame(3), { trackId: 1, wallMs, mediaTime: 27_000 });
    expect(readProducerTime(stamped)).toEqual({ trackId: 1, wallMs, mediaTime: 27_000, flags: 1 });
    // The fragment is still read as before.
    expect(readBaseDecodeTime(stamped, 1)).toBe(27_000);
    // Not stamped: nothing.
    expect(readProducerTime(frame(3))).toBeUndefined();
  });

  it('is dropped before Media Source Extensions: the bytes after it are the fragment as written', () => {
    const plain = frame(2);
    const stamped = withProducerTime(plain, { trackId: 1, wallMs: 1_700_000_000_123, mediaTime: 18_000 });
    expect(stamped.length).toBe(plain.length + 32);
    expect([...withoutProducerTime(stamped)]).toEqual([...plain]);
    expect(withoutProducerTime(plain)).toBe(plain);
  });

  it('rides with its fragment through the splitter (the shore relay)', () => {
    const splitter = new Fmp4Splitter();
    const units = splitter.push(new Uint8Array([...init, ...withProducerTime(frame(0), { trackId: 1, wallMs: 1_800_000_000_000, mediaTime: 0 }), ...frame(1)]));
    expect(units.map((u) => u.kind)).toEqual(['init', 'fragment', 'fragment']);
    const [, first, second] = units;
    expect(first && 'data' in first ? readProducerTime(first.data)?.wallMs : undefined).toBe(1_800_000_000_000);
    expect(second && 'data' in second ? readProducerTime(second.data) : 'none').toBeUndefined();
  });
});
