/**
 * The RTSP reader's H.265 pictures on paper: the sequence header from the SDP or, for a camera
 * whose SDP has no parameter sets, from its keyframe's own; a keyframe with none anywhere is said,
 * and nothing undecodable is handed on.
 */
import { describe, expect, it } from 'vitest';
import { hevcParameterSets } from '@ship-cctv/media';
import { splitNals } from '../../../src/media/access-unit.ts';
import type { SessionCodec } from '../../../src/media/camera-reader.ts';
import type { VideoPacket } from '../../../src/media/access-unit.ts';
import { HevcPictures } from '../../../src/media/rtsp/reader.ts';

const buf = (h: string) => Buffer.from(h, 'hex');
const VPS = buf('40010c01ffff01600000030090000003000003003cba0240');
const SPS = buf('42010101600000030090000003000003003ca00a080f165ba4a4c2f0168080000003008000000504');
const PPS = buf('4401c073c189');
const AUD = Buffer.from([35 << 1, 1, 0x50]);
const IDR = Buffer.from([19 << 1, 1, 0xaf, 0x12, 0x34]);
const TRAIL = Buffer.from([1 << 1, 1, 0xd0, 0x56]);

function reader(sdp: Buffer[]) {
  const configs: { record: Buffer; codec: SessionCodec | undefined }[] = [];
  const pictures: VideoPacket[] = [];
  const problems: string[] = [];
  const hevc = new HevcPictures(sdp, {
    onConfig: (record, codec) => configs.push({ record, codec }),
    onPicture: (p) => pictures.push(p),
    onBytes: () => undefined,
    onEnd: () => undefined,
    onProblem: (text) => problems.push(text),
  });
  let ts = 0;
  const picture = (nals: Buffer[], keyframe: boolean) => {
    hevc.accessUnit({ nals, timestamp: ts, keyframe, slices: true }, 90_000);
    ts += 9_000;
  };
  return { configs, pictures, problems, picture };
}

describe('H.265 pictures from RTP', () => {
  it('takes the SDP parameter sets as the sequence header, and puts AUD and parameter sets before the slices', () => {
    const r = reader([VPS, SPS, PPS]);
    expect(r.configs).toHaveLength(1);
    expect(r.configs[0]?.codec).toBe('h265');
    expect(hevcParameterSets(r.configs[0]?.record ?? Buffer.alloc(0)).map((n) => Buffer.from(n))).toEqual([VPS, SPS, PPS]);
    r.picture([IDR, PPS, SPS, VPS, AUD], true);
    r.picture([TRAIL], false);
    expect(r.pictures.map((p) => p.keyframe)).toEqual([true, false]);
    expect(splitNals(r.pictures[0]?.data ?? Buffer.alloc(0))).toEqual([AUD, VPS, SPS, PPS, IDR]);
    expect(r.pictures.map((p) => p.timestampMs)).toEqual([0, 100]);
    // The same parameter sets again in band: no second sequence header.
    expect(r.configs).toHaveLength(1);
    expect(r.problems).toEqual([]);
  });

  it('takes them from the first keyframe when the SDP has none', () => {
    const r = reader([]);
    expect(r.configs).toHaveLength(0);
    r.picture([TRAIL], false); // before any sequence header: not decodable, not handed on
    r.picture([VPS, SPS, PPS, IDR], true);
    expect(r.configs).toHaveLength(1);
    expect(r.pictures).toHaveLength(1);
    expect(r.problems).toEqual([]);
  });

  it('says a keyframe that comes with no parameter sets anywhere, and hands on nothing', () => {
    const r = reader([]);
    r.picture([IDR], true);
    r.picture([TRAIL], false);
    expect(r.pictures).toHaveLength(0);
    expect(r.configs).toHaveLength(0);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(/H.265 keyframe without its parameter sets/);
  });
});
