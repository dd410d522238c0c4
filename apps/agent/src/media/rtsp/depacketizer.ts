import { type RtpPacket, TimestampUnwrapper, sequenceStep } from './rtp.ts';

/**
 * H.264 (RFC 6184) and H.265 (RFC 7798) RTP payloads back into the camera's pictures. A picture
 * (access unit) ends at the packet whose marker bit is set (RFC 6184 5.1, RFC 7798 4.1): it is
 * handed on the moment that packet is read, not when the next picture begins — the frame of delay
 * a parser that finds picture ends by looking for the next start adds. A packet with another
 * timestamp also ends the picture before it (a camera that never sets the marker, or a lost
 * marked packet).
 *
 * A lost packet (a gap in sequence numbers) breaks the picture it belongs to; that picture and
 * every one after it is dropped until the next keyframe, since pictures predicted from a broken
 * one decode as smears. The first picture handed on is a keyframe.
 */

/** A payload this reader cannot take (interleaved packetization): the camera is for another reader. */
export class UnsupportedPayload extends Error {}

export interface AccessUnit {
  /** NAL units (header included, no start codes or lengths), in the order sent. */
  nals: Buffer[];
  /** RTP timestamp unwrapped (no 32-bit wrap), in the clock's units (90 kHz for video). */
  timestamp: number;
  /** Holds an IDR (H.264) or IRAP (H.265) picture. */
  keyframe: boolean;
  /** False for a unit of parameter sets or SEI alone, which go with the next picture. */
  slices: boolean;
  /**
   * When the camera captured it, by its own clock (epoch ms), from the camera's RTCP sender
   * reports (stream.ts); undefined until the camera sent one.
   */
  capturedAt?: number;
}

export interface DepacketizerStats {
  packets: number;
  /** Packets that never came (sequence gaps). */
  lost: number;
  /** Pictures handed on. */
  pictures: number;
  /** Pictures dropped: broken by a loss, or waiting for a keyframe after one. */
  dropped: number;
}

interface Codec {
  /** NAL unit type of a NAL (or payload) header. */
  type(header: Buffer): number;
  headerBytes: number;
  aggregation: number;
  fragment: number;
  /** Types this reader cannot take (interleaved mode's STAP-B, MTAP, FU-B; H.265 PACI). */
  unsupported: ReadonlySet<number>;
  isKeyframe(type: number): boolean;
  /** A NAL of coded picture data (a slice). */
  isVcl(type: number): boolean;
  /** The fragmented NAL's header from the payload header and the FU header. */
  fragmentHeader(payload: Buffer): Buffer;
}

const H264: Codec = {
  type: (h) => (h[0] as number) & 0x1f,
  headerBytes: 1,
  aggregation: 24, // STAP-A
  fragment: 28, // FU-A
  unsupported: new Set([25, 26, 27, 29]),
  isKeyframe: (t) => t === 5,
  isVcl: (t) => t >= 1 && t <= 5,
  fragmentHeader: (p) => Buffer.from([((p[0] as number) & 0xe0) | ((p[1] as number) & 0x1f)]),
};

const H265: Codec = {
  type: (h) => ((h[0] as number) >> 1) & 0x3f,
  headerBytes: 2,
  aggregation: 48, // AP
  fragment: 49, // FU
  unsupported: new Set([50]),
  isKeyframe: (t) => t >= 16 && t <= 21,
  isVcl: (t) => t <= 31,
  fragmentHeader: (p) => Buffer.from([((p[0] as number) & 0x81) | (((p[2] as number) & 0x3f) << 1), p[1] as number]),
};

export class Depacketizer {
  private readonly codec: Codec;
  private readonly clock = new TimestampUnwrapper();
  private lastSeq: number | undefined;
  private au: { nals: Buffer[]; timestamp: number; broken: boolean } | undefined;
  /** The fragmented NAL being joined. */
  private fu: Buffer[] | undefined;
  private needKeyframe = true;
  readonly stats: DepacketizerStats = { packets: 0, lost: 0, pictures: 0, dropped: 0 };

  constructor(readonly codecName: 'h264' | 'h265') {
    this.codec = codecName === 'h264' ? H264 : H265;
  }

  /** Feeds one RTP packet of the video's payload type; returns the pictures it completes. */
  push(pkt: RtpPacket): AccessUnit[] {
    const out: AccessUnit[] = [];
    if (this.lastSeq !== undefined) {
      const step = sequenceStep(this.lastSeq, pkt.sequence);
      if (step <= 0) return out; // late or repeated: its picture is gone already
      if (step > 1) {
        this.stats.lost += step - 1;
        this.breakPicture();
      }
    }
    this.lastSeq = pkt.sequence;
    this.stats.packets += 1;
    const timestamp = this.clock.unwrap(pkt.timestamp);
    if (this.au && this.au.timestamp !== timestamp) this.close(out);
    this.au ??= { nals: [], timestamp, broken: false };
    this.payload(pkt.payload);
    if (pkt.marker) this.close(out);
    return out;
  }

  /** A gap in the stream (lost packets, a new connection): the picture in hand is broken. */
  breakPicture(): void {
    this.fu = undefined;
    if (this.au) this.au.broken = true;
    this.needKeyframe = true;
  }

  private payload(p: Buffer): void {
    const c = this.codec;
    const au = this.au as { nals: Buffer[]; broken: boolean };
    if (p.length < c.headerBytes) return this.breakPicture();
    const type = c.type(p);
    if (type === c.fragment) {
      if (p.length < c.headerBytes + 2) return this.breakPicture();
      const fuHeader = p[c.headerBytes] as number;
      const start = (fuHeader & 0x80) !== 0;
      const end = (fuHeader & 0x40) !== 0;
      const body = p.subarray(c.headerBytes + 1);
      if (start) {
        if (this.fu) this.breakPicture(); // the end of the previous one never came
        this.fu = [c.fragmentHeader(p), body];
      } else if (!this.fu) {
        return this.breakPicture();
      } else {
        this.fu.push(body);
      }
      if (end) {
        au.nals.push(Buffer.concat(this.fu));
        this.fu = undefined;
      }
      return;
    }
    if (this.fu) this.breakPicture(); // a fragmented NAL left without its end
    if (type === c.aggregation) {
      let at = c.headerBytes;
      while (at + 2 <= p.length) {
        const len = p.readUInt16BE(at);
        at += 2;
        if (len === 0 || at + len > p.length) return this.breakPicture();
        au.nals.push(p.subarray(at, at + len));
        at += len;
      }
      return;
    }
    if (c.unsupported.has(type)) throw new UnsupportedPayload(`RTP payload of NAL type ${type} (interleaved packetization) is not supported`);
    if (this.codecName === 'h264' && (type === 0 || type > 23)) return; // reserved: ignored (RFC 6184 5.2)
    if (this.codecName === 'h265' && type > 47) return;
    au.nals.push(p);
  }

  private close(out: AccessUnit[]): void {
    const au = this.au;
    this.au = undefined;
    this.fu = undefined;
    if (!au) return;
    if (au.broken) {
      this.stats.dropped += 1;
      return;
    }
    if (au.nals.length === 0) return;
    if (!au.nals.some((n) => this.codec.isVcl(this.codec.type(n)))) {
      // Parameter sets or SEI sent on their own (no slice): they belong to the next picture.
      out.push({ nals: au.nals, timestamp: au.timestamp, keyframe: false, slices: false });
      return;
    }
    const keyframe = au.nals.some((n) => this.codec.isKeyframe(this.codec.type(n)));
    if (this.needKeyframe && !keyframe) {
      this.stats.dropped += 1;
      return;
    }
    this.needKeyframe = false;
    this.stats.pictures += 1;
    out.push({ nals: au.nals, timestamp: au.timestamp, keyframe, slices: true });
  }
}
