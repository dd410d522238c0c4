import { describe, expect, it } from 'vitest';
import { avcConfigRecord, avcParameterSets, parseAvcConfig } from '../../src/media/avc.ts';

describe('avcParameterSets', () => {
  it('gives back the parameter sets avcConfigRecord put in, SPS first', () => {
    const sps = Buffer.from([0x67, 0x42, 0xc0, 0x1e, 0xda, 0x02, 0x80, 0xbf, 0xe5]);
    const pps = [Buffer.from([0x68, 0xce, 0x3c, 0x80]), Buffer.from([0x68, 0xce, 0x06, 0xe2])];
    const record = avcConfigRecord([sps], pps);
    expect(parseAvcConfig(record).nalLengthSize).toBe(4);
    expect(avcParameterSets(record)).toEqual([sps, ...pps]);
  });

  it('stops at the end of a truncated record instead of reading past it', () => {
    const record = avcConfigRecord([Buffer.from([0x67, 0x42, 0xc0, 0x1e])], [Buffer.from([0x68, 0xce])]);
    const sets = avcParameterSets(record.subarray(0, 8));
    expect(sets).toHaveLength(1);
    expect(sets[0]?.length).toBeLessThan(4);
  });
});
