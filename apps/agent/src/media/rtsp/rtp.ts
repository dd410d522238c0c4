/** RTP packets (RFC 3550 5.1) as they come interleaved on an RTSP connection. */

export interface RtpPacket {
  marker: boolean;
  payloadType: number;
  sequence: number;
  /** 32-bit, as sent (see TimestampUnwrapper). */
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

/** Reads one RTP packet; throws on one that is not RTP version 2 or whose lengths do not fit. */
export function parseRtp(buf: Buffer): RtpPacket {
  if (buf.length < 12) throw new Error(`RTP packet of ${buf.length} bytes is too short`);
  const b0 = buf[0] as number;
  if (b0 >> 6 !== 2) throw new Error(`RTP version ${b0 >> 6} is not 2`);
  const csrcCount = b0 & 0x0f;
  let at = 12 + csrcCount * 4;
  if (b0 & 0x10) {
    if (buf.length < at + 4) throw new Error('RTP header extension runs past the packet');
    at += 4 + buf.readUInt16BE(at + 2) * 4;
  }
  let end = buf.length;
  if (b0 & 0x20) end -= buf[buf.length - 1] as number;
  if (at > end) throw new Error('RTP header runs past the packet');
  const b1 = buf[1] as number;
  return {
    marker: (b1 & 0x80) !== 0,
    payloadType: b1 & 0x7f,
    sequence: buf.readUInt16BE(2),
    timestamp: buf.readUInt32BE(4),
    ssrc: buf.readUInt32BE(8),
    payload: buf.subarray(at, end),
  };
}

/** 32-bit RTP timestamps made into one growing count (steps read as signed 32-bit differences). */
export class TimestampUnwrapper {
  private lastRaw: number | undefined;
  private value = 0;

  unwrap(raw: number): number {
    if (this.lastRaw !== undefined) this.value += (raw - this.lastRaw) | 0;
    else this.value = raw;
    this.lastRaw = raw;
    return this.value;
  }
}

/** Whether `seq` follows `last` (16 bits, wrapping); a negative step is a late or repeated packet. */
export function sequenceStep(last: number, seq: number): number {
  return (((seq - last) & 0xffff) << 16) >> 16;
}

/** An empty RTCP receiver report (RFC 3550 6.4.2): some cameras end a session that never sends one. */
export function rtcpReceiverReport(ssrc: number): Buffer {
  const b = Buffer.alloc(8);
  b[0] = 0x80;
  b[1] = 201;
  b.writeUInt16BE(1, 2);
  b.writeUInt32BE(ssrc >>> 0, 4);
  return b;
}
