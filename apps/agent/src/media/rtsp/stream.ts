import { RtspConnection, type RtspResponse, header } from './connection.ts';
import { type AccessUnit, Depacketizer, UnsupportedPayload } from './depacketizer.ts';
import { type SenderReport, capturedAt, parseRtp, readSenderReport, rtcpReceiverReport } from './rtp.ts';
import { type VideoTrack, parseSdp, resolveControl, videoTrack } from './sdp.ts';

/**
 * A camera's video over RTSP, read without ffmpeg: OPTIONS, DESCRIBE (authenticated when the
 * camera asks), SETUP of the first video stream with RTP interleaved on the RTSP connection (TCP:
 * nothing lost on the way, one connection through firewalls and NAT), PLAY; then keep-alives at
 * half the session's time-out, and TEARDOWN on stop. Pictures are handed on as the depacketizer
 * completes them (depacketizer.ts: at the marker bit), each with when the camera captured it once
 * the camera sent an RTCP sender report (its wall clock at an RTP timestamp).
 */

export interface RtspStreamOptions {
  /** Connecting and each answer may take this long. Default 5 s. */
  timeoutMs?: number;
  /** The first RTP packet may take this long after PLAY. Default 15 s. */
  firstPacketTimeoutMs?: number;
  /**
   * The described video stream: return a reason to stop before SETUP (the caller cannot use it);
   * it comes back as the end's `unsupported`.
   */
  onTrack?(track: VideoTrack): string | undefined;
  onAccessUnit(au: AccessUnit, track: VideoTrack): void;
  /** Bytes of RTP received. */
  onBytes?(n: number): void;
  /** Once, unless stop() came first. `fallback`: the camera works but not with this reader. */
  onEnd(end: RtspStreamEnd): void;
}

export interface RtspStreamEnd {
  reason: string;
  /** The camera's stream is one this reader cannot take (another reader may). */
  fallback?: string;
  /** The caller refused the described stream (onTrack's reason). */
  unsupported?: string;
}

export interface RtspStream {
  /** Sends TEARDOWN and closes the connection. */
  stop(): void;
  readonly track: VideoTrack | undefined;
  readonly stats: Depacketizer['stats'] | undefined;
}

const MAX_REDIRECTS = 3;

class Stop extends Error {
  constructor(readonly end: RtspStreamEnd) {
    super(end.reason);
  }
}

const describeStatus = (method: string, r: RtspResponse) => {
  if (r.status === 401) return `the camera refused the credentials (${method}: 401 ${r.reason})`.trim();
  return `the camera answered ${method} with ${r.status} ${r.reason}`.trim();
};

export function openRtspStream(url: string, opts: RtspStreamOptions): RtspStream {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  let stopped = false;
  let ended = false;
  let conn: RtspConnection | undefined;
  let track: VideoTrack | undefined;
  let depacketizer: Depacketizer | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  let firstPacket: NodeJS.Timeout | undefined;
  let playUrl = url;

  const end = (e: RtspStreamEnd) => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    clearTimeout(firstPacket);
    if (conn) {
      if (conn.session) conn.sendOnly('TEARDOWN', playUrl);
      conn.close();
    }
    if (!stopped) opts.onEnd(e);
  };

  let rtpChannel = 0;
  /**
   * The camera's latest sender report (its RTCP channel carries the one stream set up): when it
   * captured each picture, by its clock. Dropped when the pictures come from another source.
   */
  let report: SenderReport | undefined;
  const onInterleaved = (channel: number, data: Buffer) => {
    if (channel === rtpChannel + 1) {
      report = readSenderReport(data) ?? report;
      return;
    }
    if (channel !== rtpChannel || !depacketizer || !track) return;
    clearTimeout(firstPacket);
    firstPacket = undefined;
    opts.onBytes?.(data.length + 4);
    let units: AccessUnit[];
    try {
      const pkt = parseRtp(data);
      if (pkt.payloadType !== track.payloadType) return;
      if (report && report.ssrc !== pkt.ssrc) report = undefined;
      units = depacketizer.push(pkt);
    } catch (err) {
      if (err instanceof UnsupportedPayload) return end({ reason: err.message, fallback: err.message });
      // Not RTP: whatever picture it belonged to is broken.
      depacketizer.breakPicture();
      return;
    }
    for (const au of units) {
      if (report) au.capturedAt = capturedAt(report, au.timestamp, track.clockRate);
      opts.onAccessUnit(au, track);
    }
  };

  const connectTo = async (target: URL): Promise<RtspConnection> => {
    const c = await RtspConnection.open(target, {
      timeoutMs,
      onInterleaved: (ch, data) => {
        try {
          onInterleaved(ch, data);
        } catch (err) {
          end({ reason: `camera stream unreadable: ${(err as Error).message}` });
        }
      },
      onClose: (reason) => end({ reason }),
    });
    if (stopped || ended) {
      c.close();
      throw new Stop({ reason: 'stopped' });
    }
    return c;
  };

  const run = async () => {
    let target = new URL(url);
    if (target.protocol !== 'rtsp:') throw new Stop({ reason: `not an rtsp:// URL: ${target.protocol}`, fallback: 'not rtsp://' });
    // Credentials travel in Authorization, never in the request line.
    const bare = (u: URL) => {
      const copy = new URL(u.href);
      copy.username = '';
      copy.password = '';
      return copy.href;
    };
    let described: RtspResponse | undefined;
    let requestUrl = bare(target);
    let publicMethods = '';
    for (let hop = 0; ; hop++) {
      conn = await connectTo(target);
      requestUrl = bare(target);
      const options = await conn.request('OPTIONS', requestUrl);
      if (options.status === 200) publicMethods = header(options, 'public') ?? '';
      described = await conn.request('DESCRIBE', requestUrl, { Accept: 'application/sdp' });
      const location = header(described, 'location');
      if (described.status >= 300 && described.status < 400 && location && hop < MAX_REDIRECTS) {
        const next = new URL(location, target);
        if (!next.username && target.username) [next.username, next.password] = [target.username, target.password];
        conn.close();
        conn = undefined;
        target = next;
        continue;
      }
      break;
    }
    if (described.status !== 200) throw new Stop({ reason: describeStatus('DESCRIBE', described) });
    const base = header(described, 'content-base') ?? header(described, 'content-location') ?? requestUrl;
    const described_ = videoTrack(parseSdp(described.body.toString('utf8')), base);
    if ('unsupported' in described_) throw new Stop({ reason: described_.unsupported, fallback: described_.unsupported });
    if (described_.codec === 'h264' && described_.packetizationMode === 2) {
      throw new Stop({ reason: 'the camera uses interleaved packetization (mode 2)', fallback: 'packetization-mode 2' });
    }
    const refused = opts.onTrack?.(described_);
    if (refused) throw new Stop({ reason: refused, unsupported: refused });
    const setup = await conn.request('SETUP', described_.control, { Transport: 'RTP/AVP/TCP;unicast;interleaved=0-1' });
    if (setup.status === 461) throw new Stop({ reason: 'the camera does not send RTP over its RTSP connection (461)', fallback: 'no RTP over TCP' });
    if (setup.status !== 200) throw new Stop({ reason: describeStatus('SETUP', setup) });
    const session = header(setup, 'session');
    if (!session) throw new Stop({ reason: 'the camera gave no session in its SETUP answer' });
    const [id, ...params] = session.split(';');
    conn.session = (id ?? '').trim();
    const timeoutParam = params.map((p) => /^\s*timeout\s*=\s*(\d+)/i.exec(p)?.[1]).find(Boolean);
    // RFC 2326 12.37: 60 s unless the camera says otherwise.
    const sessionTimeoutS = Math.max(2, Number(timeoutParam ?? 60));
    const interleaved = /interleaved=(\d+)/i.exec(header(setup, 'transport') ?? '');
    rtpChannel = interleaved ? Number(interleaved[1]) : 0;
    track = described_;
    depacketizer = new Depacketizer(track.codec);
    playUrl = resolveControl(base, undefined);
    const play = await conn.request('PLAY', playUrl, { Range: 'npt=0.000-' });
    if (play.status !== 200) throw new Stop({ reason: describeStatus('PLAY', play) });
    const firstPacketMs = opts.firstPacketTimeoutMs ?? 15_000;
    firstPacket = setTimeout(() => end({ reason: `no video from the camera within ${firstPacketMs} ms of PLAY` }), firstPacketMs);
    const ka = /GET_PARAMETER/i.test(publicMethods) ? 'GET_PARAMETER' : 'OPTIONS';
    const ssrc = (Math.random() * 0xffffffff) >>> 0;
    keepAlive = setInterval(() => {
      if (!conn || ended) return;
      conn.writeInterleaved(rtpChannel + 1, rtcpReceiverReport(ssrc));
      // A camera that stops answering is caught by the reader's stall watch; no answer is needed here.
      conn.request(ka, ka === 'OPTIONS' ? requestUrl : playUrl).catch(() => undefined);
    }, (sessionTimeoutS * 1000) / 2);
    keepAlive.unref();
  };

  run().catch((err: unknown) => {
    if (err instanceof Stop) end(err.end);
    else end({ reason: (err as Error).message });
  });

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      end({ reason: 'stopped' });
    },
    get track() {
      return track;
    },
    get stats() {
      return depacketizer?.stats;
    },
  };
}
