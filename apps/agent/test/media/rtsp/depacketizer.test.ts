/**
 * RTP payloads back into pictures (RFC 6184 H.264, RFC 7798 H.265): single NAL units, aggregation
 * and fragmentation across packets, a picture handed on at its marker bit, timestamps unwrapped
 * past 2^32, and a lost packet dropping the broken picture and the ones predicted from it until
 * the next keyframe.
 */
import { describe, expect, it } from 'vitest';
import { Depacketizer } from '../../../src/media/rtsp/depacketizer.ts';
import { type RtpPacket, TimestampUnwrapper, parseRtp, sequenceStep } from '../../../src/media/rtsp/rtp.ts';

/** An RTP packet as a camera sends it (12-byte header, payload type 96). */
function rtp(o: { seq: number; ts: number; marker?: boolean; payload: Buffer; csrc?: number; extensionWords?: number; padding?: number }): Buffer {
  const csrc = o.csrc ?? 0;
  const ext = o.extensionWords;
  const head = Buffer.alloc(12 + csrc * 4 + (ext === undefined ? 0 : 4 + ext * 4));
  head[0] = 0x80 | (o.padding ? 0x20 : 0) | (ext !== undefined ? 0x10 : 0) | csrc;
  head[1] = (o.marker ? 0x80 : 0) | 96;
  head.writeUInt16BE(o.seq & 0xffff, 2);
  head.writeUInt32BE(o.ts >>> 0, 4);
  head.writeUInt32BE(0x1234, 8);
  if (ext !== undefined) head.writeUInt16BE(ext, 12 + csrc * 4 + 2);
  const pad = o.padding ? Buffer.concat([Buffer.alloc(o.padding - 1), Buffer.from([o.padding])]) : Buffer.alloc(0);
  return Buffer.concat([head, o.payload, pad]);
}

const nal = (header: number, size: number, fill = 0xab) => Buffer.concat([Buffer.from([header]), Buffer.alloc(size - 1, fill)]);
const SPS = Buffer.from([0x67, 0x42, 0xc0, 0x0c, 0xda]);
const PPS = Buffer.from([0x68, 0xce, 0x3c, 0x80]);
const IDR = nal(0x65, 3000, 0x11);
const P = nal(0x41, 800, 0x22);

/** FU-A fragments of a NAL unit, `size` bytes of its body each. */
function fuA(unit: Buffer, size: number): Buffer[] {
  const indicator = ((unit[0] as number) & 0xe0) | 28;
  const type = (unit[0] as number) & 0x1f;
  const body = unit.subarray(1);
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) {
    const start = at === 0 ? 0x80 : 0;
    const end = at + size >= body.length ? 0x40 : 0;
    out.push(Buffer.concat([Buffer.from([indicator, start | end | type]), body.subarray(at, at + size)]));
  }
  return out;
}

function stapA(...units: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from([24])];
  for (const u of units) {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(u.length);
    parts.push(len, u);
  }
  return Buffer.concat(parts);
}

/** Packets of one picture: the payloads given, the marker on the last. */
function picture(seq: number, ts: number, payloads: Buffer[]): RtpPacket[] {
  return payloads.map((payload, i) => parseRtp(rtp({ seq: seq + i, ts, marker: i === payloads.length - 1, payload })));
}

describe('RTP packets', () => {
  it('reads the header past CSRCs, an extension and padding', () => {
    const p = parseRtp(rtp({ seq: 65535, ts: 0xfffffff0, marker: true, payload: Buffer.from([1, 2, 3]), csrc: 2, extensionWords: 1, padding: 4 }));
    expect(p).toMatchObject({ marker: true, payloadType: 96, sequence: 65535, timestamp: 0xfffffff0, ssrc: 0x1234 });
    expect([...p.payload]).toEqual([1, 2, 3]);
  });

  it('refuses what is not RTP version 2 or too short', () => {
    expect(() => parseRtp(Buffer.alloc(8))).toThrow(/too short/);
    expect(() => parseRtp(Buffer.alloc(12))).toThrow(/version 0/);
  });

  it('unwraps 32-bit timestamps and 16-bit sequence numbers', () => {
    const u = new TimestampUnwrapper();
    expect(u.unwrap(0xffffd8f0)).toBe(0xffffd8f0);
    expect(u.unwrap(0x00001388)).toBe(2 ** 32 + 5_000);
    expect(u.unwrap(0x00003a98)).toBe(2 ** 32 + 15_000);
    // A step back (a B-frame's or a late packet's stamp) is a step back, not a wrap.
    expect(u.unwrap(0x00003a00)).toBe(2 ** 32 + 14_848);
    expect(sequenceStep(65535, 0)).toBe(1);
    expect(sequenceStep(65530, 3)).toBe(9);
    expect(sequenceStep(5, 3)).toBe(-2);
  });
});

describe('the H.264 depacketizer', () => {
  it('hands a picture on at the packet with the marker bit, not when the next one begins', () => {
    const d = new Depacketizer('h264');
    const packets = picture(100, 9000, [stapA(SPS, PPS), ...fuA(IDR, 1000)]);
    // Every packet before the marked one completes nothing.
    for (const p of packets.slice(0, -1)) expect(d.push(p)).toEqual([]);
    const [au, ...rest] = d.push(packets.at(-1) as RtpPacket);
    expect(rest).toEqual([]);
    expect(au?.keyframe).toBe(true);
    expect(au?.slices).toBe(true);
    expect(au?.timestamp).toBe(9000);
    expect(au?.nals.map((n) => n.toString('hex'))).toEqual([SPS, PPS, IDR].map((n) => n.toString('hex')));
    // The next picture, a single NAL unit packet: whole at its own marker.
    expect(d.push(parseRtp(rtp({ seq: 104, ts: 18_000, marker: true, payload: P })))[0]?.nals).toEqual([P]);
  });

  it('joins a FU-A NAL unit across many packets and a picture of several slices', () => {
    const d = new Depacketizer('h264');
    const slice2 = nal(0x65, 2500, 0x33);
    const out = [SPS, PPS].length;
    const aus = picture(7, 1_000, [stapA(SPS, PPS), ...fuA(IDR, 100), ...fuA(slice2, 700)]).flatMap((p) => d.push(p));
    expect(aus).toHaveLength(1);
    expect(aus[0]?.nals.slice(out)).toEqual([IDR, slice2]);
    expect(d.stats).toMatchObject({ packets: 1 + 30 + 4, lost: 0, pictures: 1, dropped: 0 });
  });

  it('ends a picture whose marker never came when a packet of the next timestamp arrives', () => {
    const d = new Depacketizer('h264');
    expect(d.push(parseRtp(rtp({ seq: 1, ts: 0, payload: IDR })))).toEqual([]);
    const aus = d.push(parseRtp(rtp({ seq: 2, ts: 9000, payload: P })));
    expect(aus.map((a) => a.timestamp)).toEqual([0]);
  });

  it('keeps the clock counting across the 32-bit wrap of RTP timestamps', () => {
    const d = new Depacketizer('h264');
    const start = 0xffffffff - 9000 * 2 + 1;
    const stamps = [0, 1, 2, 3].map((i) => (start + i * 9000) >>> 0);
    const aus = stamps.flatMap((ts, i) => d.push(parseRtp(rtp({ seq: 65534 + i, ts, marker: true, payload: i === 0 ? IDR : P }))));
    expect(aus.map((a) => a.timestamp - start)).toEqual([0, 9000, 18_000, 27_000]);
  });

  it('drops the picture a lost packet broke, and every picture after it until the next keyframe', () => {
    const d = new Depacketizer('h264');
    let seq = 0;
    const send = (ts: number, payloads: Buffer[], skip?: number) => {
      const packets = picture(seq, ts, payloads);
      seq += payloads.length;
      return packets.filter((_, i) => i !== skip).flatMap((p) => d.push(p));
    };
    expect(send(0, [stapA(SPS, PPS), ...fuA(IDR, 1000)])).toHaveLength(1);
    expect(send(9000, fuA(P, 300))).toHaveLength(1);
    // The middle fragment of the next picture is lost.
    expect(send(18_000, fuA(P, 300), 1)).toEqual([]);
    // Predicted from the broken one: dropped too.
    expect(send(27_000, [P])).toEqual([]);
    expect(send(36_000, fuA(P, 300))).toEqual([]);
    // The next keyframe: handed on again, and what follows it.
    const key = send(45_000, [stapA(SPS, PPS), ...fuA(IDR, 1000)]);
    expect(key.map((a) => [a.timestamp, a.keyframe])).toEqual([[45_000, true]]);
    expect(send(54_000, [P])).toHaveLength(1);
    expect(d.stats).toMatchObject({ lost: 1, pictures: 4, dropped: 3 });
  });

  it('drops a picture whose FU-A end was lost with the marked packet, and waits for a keyframe', () => {
    const d = new Depacketizer('h264');
    expect(picture(0, 0, [IDR]).flatMap((p) => d.push(p))).toHaveLength(1);
    const frags = picture(1, 9000, fuA(P, 300));
    // The last fragment (with the marker) is lost; the next picture's packet shows the gap.
    for (const p of frags.slice(0, -1)) d.push(p);
    expect(d.push(parseRtp(rtp({ seq: 1 + frags.length, ts: 18_000, marker: true, payload: P })))).toEqual([]);
    expect(d.stats.lost).toBe(1);
  });

  it('starts at a keyframe: pictures before the first one are not handed on', () => {
    const d = new Depacketizer('h264');
    expect(d.push(parseRtp(rtp({ seq: 0, ts: 0, marker: true, payload: P })))).toEqual([]);
    expect(d.push(parseRtp(rtp({ seq: 1, ts: 9000, marker: true, payload: IDR })))).toHaveLength(1);
  });

  it('ignores repeated and late packets', () => {
    const d = new Depacketizer('h264');
    const p = parseRtp(rtp({ seq: 10, ts: 0, marker: true, payload: IDR }));
    expect(d.push(p)).toHaveLength(1);
    expect(d.push(p)).toEqual([]);
    expect(d.stats).toMatchObject({ packets: 1, lost: 0 });
  });

  it('hands parameter sets sent alone on as a unit without slices, for the next picture', () => {
    const d = new Depacketizer('h264');
    const [params] = d.push(parseRtp(rtp({ seq: 0, ts: 0, marker: true, payload: stapA(SPS, PPS) })));
    expect(params).toMatchObject({ slices: false, keyframe: false, nals: [SPS, PPS] });
    expect(d.push(parseRtp(rtp({ seq: 1, ts: 0, marker: true, payload: IDR })))[0]).toMatchObject({ slices: true, keyframe: true });
  });

  it('refuses interleaved packetization (STAP-B) with a clear error', () => {
    const d = new Depacketizer('h264');
    expect(() => d.push(parseRtp(rtp({ seq: 0, ts: 0, marker: true, payload: Buffer.from([25, 0, 0]) })))).toThrow(/interleaved/);
  });
});

describe('the H.265 depacketizer', () => {
  const h265 = (type: number, size: number, fill: number) => Buffer.concat([Buffer.from([type << 1, 1]), Buffer.alloc(size - 2, fill)]);
  const VPS = h265(32, 20, 1);
  const HSPS = h265(33, 30, 2);
  const HPPS = h265(34, 8, 3);
  const IDR_W_RADL = h265(19, 4000, 4);
  const TRAIL = h265(1, 900, 5);

  const ap = (...units: Buffer[]) => {
    const parts: Buffer[] = [Buffer.from([48 << 1, 1])];
    for (const u of units) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(u.length);
      parts.push(len, u);
    }
    return Buffer.concat(parts);
  };
  const fu = (unit: Buffer, size: number) => {
    const type = ((unit[0] as number) >> 1) & 0x3f;
    const head = [((unit[0] as number) & 0x81) | (49 << 1), unit[1] as number];
    const body = unit.subarray(2);
    const out: Buffer[] = [];
    for (let at = 0; at < body.length; at += size) {
      const fuHeader = (at === 0 ? 0x80 : 0) | (at + size >= body.length ? 0x40 : 0) | type;
      out.push(Buffer.concat([Buffer.from([...head, fuHeader]), body.subarray(at, at + size)]));
    }
    return out;
  };

  it('joins aggregation packets and fragments into a keyframe handed on at its marker', () => {
    const d = new Depacketizer('h265');
    const aus = picture(0, 0, [ap(VPS, HSPS, HPPS), ...fu(IDR_W_RADL, 1200)]).flatMap((p) => d.push(p));
    expect(aus).toHaveLength(1);
    expect(aus[0]?.keyframe).toBe(true);
    expect(aus[0]?.nals).toEqual([VPS, HSPS, HPPS, IDR_W_RADL]);
    const next = picture(5, 9000, fu(TRAIL, 400)).flatMap((p) => d.push(p));
    expect(next.map((a) => [a.keyframe, a.nals.length, a.nals[0]?.equals(TRAIL)])).toEqual([[false, 1, true]]);
  });

  it('drops pictures after a loss until the next keyframe', () => {
    const d = new Depacketizer('h265');
    expect(picture(0, 0, [IDR_W_RADL]).flatMap((p) => d.push(p))).toHaveLength(1);
    expect(picture(2, 9000, [TRAIL]).flatMap((p) => d.push(p))).toEqual([]);
    expect(picture(3, 18_000, [TRAIL]).flatMap((p) => d.push(p))).toEqual([]);
    expect(picture(4, 27_000, [IDR_W_RADL]).flatMap((p) => d.push(p))).toHaveLength(1);
  });
});
