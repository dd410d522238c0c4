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

/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_UNIX_OFFSET_S = 2_208_988_800;

/** What a camera's RTCP sender report says: its wall clock at one RTP timestamp. */
export interface SenderReport {
  ssrc: number;
  /** The camera's wall clock, epoch ms (from the report's 64-bit NTP time). */
  wallMs: number;
  /** The RTP timestamp (32-bit, as sent) that corresponds to `wallMs`. */
  rtpTimestamp: number;
}

/**
 * The sender report (RFC 3550 6.4.1, packet type 200) of a compound RTCP packet, if it has one; a
 * packet that is not RTCP version 2 or whose lengths do not fit has none.
 */
export function readSenderReport(buf: Buffer): SenderReport | undefined {
  let at = 0;
  while (at + 4 <= buf.length) {
    const b0 = buf[at] as number;
    if (b0 >> 6 !== 2) return undefined;
    const length = (buf.readUInt16BE(at + 2) + 1) * 4;
    if (at + length > buf.length) return undefined;
    if (buf[at + 1] === 200 && length >= 28) {
      const seconds = buf.readUInt32BE(at + 8);
      const fraction = buf.readUInt32BE(at + 12);
      return {
        ssrc: buf.readUInt32BE(at + 4),
        wallMs: (seconds - NTP_UNIX_OFFSET_S) * 1000 + (fraction / 2 ** 32) * 1000,
        rtpTimestamp: buf.readUInt32BE(at + 16),
      };
    }
    at += length;
  }
  return undefined;
}

/**
 * When the camera says it captured the picture of RTP timestamp `rtpTimestamp` (unwrapped or as
 * sent), from its latest sender report: the report's wall clock plus the steps of the RTP clock
 * between them (signed 32-bit, so a wrap between the two does not matter).
 */
export function capturedAt(report: SenderReport, rtpTimestamp: number, clockRate: number): number {
  const ticks = ((rtpTimestamp >>> 0) - report.rtpTimestamp) | 0;
  return report.wallMs + (ticks * 1000) / clockRate;
}
