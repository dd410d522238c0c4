import { describe, expect, it } from 'vitest';
import { capturedAt, readSenderReport, rtcpReceiverReport } from '../../../src/media/rtsp/rtp.ts';

/** A sender report (RFC 3550 6.4.1) of `ssrc` saying the camera's clock read `wallMs` at RTP time `rtp`. */
function senderReport(ssrc: number, wallMs: number, rtp: number): Buffer {
  const b = Buffer.alloc(28);
  b[0] = 0x80;
  b[1] = 200;
  b.writeUInt16BE(6, 2);
  b.writeUInt32BE(ssrc, 4);
  const seconds = Math.floor(wallMs / 1000) + 2_208_988_800;
  b.writeUInt32BE(seconds, 8);
  b.writeUInt32BE(Math.round(((wallMs % 1000) / 1000) * 2 ** 32), 12);
  b.writeUInt32BE(rtp >>> 0, 16);
  return b;
}

/** A source description (packet type 202) with one empty chunk, as cameras send after the report. */
const sdes = (ssrc: number) => {
  const b = Buffer.alloc(12);
  b[0] = 0x81;
  b[1] = 202;
  b.writeUInt16BE(2, 2);
  b.writeUInt32BE(ssrc, 4);
  return b;
};

describe("a camera's RTCP sender reports: when it captured each picture, by its clock", () => {
  it('reads the report of a compound packet, wherever it sits', () => {
    const wall = 1_800_000_000_250;
    const sr = senderReport(0x1234, wall, 4_000_000_000);
    for (const packet of [sr, Buffer.concat([sr, sdes(0x1234)]), Buffer.concat([rtcpReceiverReport(9), sr])]) {
      const read = readSenderReport(packet);
      expect(read?.ssrc).toBe(0x1234);
      expect(read?.rtpTimestamp).toBe(4_000_000_000);
      expect(read?.wallMs).toBeCloseTo(wall, 3);
    }
  });

  it('finds none in a packet without one, or one whose lengths do not fit', () => {
    expect(readSenderReport(Buffer.concat([rtcpReceiverReport(9), sdes(9)]))).toBeUndefined();
    expect(readSenderReport(senderReport(1, 1_800_000_000_000, 0).subarray(0, 20))).toBeUndefined();
    expect(readSenderReport(Buffer.from([0x00, 200, 0, 6]))).toBeUndefined();
  });

  it("puts each picture at the report's time plus the RTP clock's steps, across a wrap of the 32-bit clock", () => {
    const report = { ssrc: 1, wallMs: 1_800_000_000_000, rtpTimestamp: 0xffff_ff00 };
    // 9000 ticks of 90 kHz later: 100 ms; the timestamp has wrapped (and comes unwrapped from the depacketizer).
    expect(capturedAt(report, 0xffff_ff00 + 9000, 90_000)).toBeCloseTo(1_800_000_000_100, 6);
    expect(capturedAt(report, (0xffff_ff00 + 9000) >>> 0, 90_000)).toBeCloseTo(1_800_000_000_100, 6);
    // A picture before the report.
    expect(capturedAt(report, 0xffff_ff00 - 4500, 90_000)).toBeCloseTo(1_799_999_999_950, 6);
  });
});
