import { describe, expect, it } from 'vitest';
import { hevcConfigRecord, hevcNalType, hevcParameterSets, initSegment, isHevcKeyframe, parseInitSegment, readHevcSps, readVideoDecoderSetup } from '../src/index.ts';

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
/** x265's parameter sets of a 320×240, 4:2:0, 8-bit Main stream (ffmpeg -c:v libx265 -preset ultrafast). */
const VPS = hex('40010c01ffff01600000030090000003000003003cba0240');
const SPS = hex('42010101600000030090000003000003003ca00a080f165ba4a4c2f0168080000003008000000504');
const PPS = hex('4401c073c189');

describe('H.265 parameter sets', () => {
  it('reads the SPS: size, chroma, bit depth, profile and reorder depth', () => {
    expect(hevcNalType(SPS)).toBe(33);
    const sps = readHevcSps(SPS);
    expect(sps).toMatchObject({ width: 320, height: 240, chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, maxSubLayers: 1, reorderPictures: 0 });
    expect(sps.generalProfile[0]).toBe(0x01); // Main profile, space 0, tier Main
    expect(sps.generalProfile[11]).toBe(60); // level 2
    expect(() => readHevcSps(PPS)).toThrow(/not an H.265 sequence parameter set/);
    expect(() => readHevcSps(SPS.subarray(0, 10))).toThrow(/ends early/);
  });

  it('makes an hvcC record that names the stream as browsers and ffmpeg do, in an hvc1 init segment', () => {
    const record = hevcConfigRecord([VPS], [SPS], [PPS]);
    expect(hevcParameterSets(record)).toEqual([VPS, SPS, PPS]);
    const init = initSegment({ hvcConfig: record, width: 320, height: 240, timescale: 90_000 });
    const parsed = parseInitSegment(init);
    expect(parsed).toMatchObject({ codec: 'hvc1.1.6.L60.90', width: 320, height: 240, timescale: 90_000 });
    // WebCodecs gets the same record as its description.
    expect(readVideoDecoderSetup(init)).toMatchObject({ codec: 'hvc1.1.6.L60.90', description: record });
    expect(() => hevcConfigRecord([], [SPS], [PPS])).toThrow(/needs a VPS, an SPS and a PPS/);
    expect(() => initSegment({ width: 320, height: 240, timescale: 90_000 })).toThrow(/either an AVC or an HEVC configuration/);
  });

  it('tells random access pictures (IDR, CRA) from the rest', () => {
    expect(isHevcKeyframe(Uint8Array.of(19 << 1, 1))).toBe(true); // IDR_W_RADL
    expect(isHevcKeyframe(Uint8Array.of(21 << 1, 1))).toBe(true); // CRA
    expect(isHevcKeyframe(Uint8Array.of(1 << 1, 1))).toBe(false); // TRAIL_R
    expect(isHevcKeyframe(SPS)).toBe(false);
  });
});
