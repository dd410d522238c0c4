/**
 * The parts of a camera's session description (SDP, RFC 8866) an RTSP reader needs: each media
 * section's payload types (`a=rtpmap`), their format parameters (`a=fmtp`, where H.264 carries
 * `sprop-parameter-sets` and `packetization-mode`, RFC 6184 8.1; H.265 `sprop-vps/sps/pps`,
 * RFC 7798 7.1) and its control URL (`a=control`, RFC 2326 C.1.1).
 */

export interface SdpRtpMap {
  encoding: string;
  clockRate: number;
}

export interface SdpMedia {
  /** `video`, `audio`, `application` … */
  type: string;
  /** `RTP/AVP` … */
  protocol: string;
  payloadTypes: number[];
  control: string | undefined;
  rtpmap: Map<number, SdpRtpMap>;
  /** Parameter names in lower case. */
  fmtp: Map<number, Map<string, string>>;
}

export interface Sdp {
  /** Session-level `a=control`. */
  control: string | undefined;
  media: SdpMedia[];
}

export function parseSdp(text: string): Sdp {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  if (!lines[0]?.startsWith('v=')) throw new Error('not a session description: it does not start with v=');
  const sdp: Sdp = { control: undefined, media: [] };
  let media: SdpMedia | undefined;
  for (const line of lines) {
    if (line[1] !== '=') throw new Error(`malformed SDP line: ${line.slice(0, 80)}`);
    const kind = line[0];
    const value = line.slice(2);
    if (kind === 'm') {
      const [type, , protocol, ...formats] = value.split(/\s+/);
      if (!type || !protocol) throw new Error(`malformed SDP media line: ${value}`);
      media = { type, protocol, payloadTypes: formats.map(Number).filter(Number.isInteger), control: undefined, rtpmap: new Map(), fmtp: new Map() };
      sdp.media.push(media);
    } else if (kind === 'a') {
      const colon = value.indexOf(':');
      const name = (colon < 0 ? value : value.slice(0, colon)).toLowerCase();
      const attr = colon < 0 ? '' : value.slice(colon + 1).trim();
      if (name === 'control') {
        if (media) media.control = attr;
        else sdp.control = attr;
      } else if (media && name === 'rtpmap') {
        const m = /^(\d+)\s+([^/\s]+)\/(\d+)/.exec(attr);
        if (m) media.rtpmap.set(Number(m[1]), { encoding: (m[2] as string).toUpperCase(), clockRate: Number(m[3]) });
      } else if (media && name === 'fmtp') {
        const m = /^(\d+)\s+(.*)$/.exec(attr);
        if (m) media.fmtp.set(Number(m[1]), parseFmtp(m[2] as string));
      }
    }
  }
  return sdp;
}

/** `a=fmtp` parameters: `name=value` separated by `;` (values may hold `=`, as base64 does). */
function parseFmtp(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name) params.set(name, eq < 0 ? '' : part.slice(eq + 1).trim());
  }
  return params;
}

/**
 * A control attribute resolved against the session's base URL the way cameras expect it (and as
 * common clients do): an absolute URL as it is, `*` or none the base itself, anything else appended
 * to the base with one `/` between (strict RFC 3986 resolution would drop the base's last segment,
 * which many cameras' relative `trackID=1` does not mean).
 */
export function resolveControl(base: string, control: string | undefined): string {
  if (!control || control === '*') return base;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(control)) return control;
  return `${base.replace(/\/+$/, '')}/${control.replace(/^\/+/, '')}`;
}

export type VideoCodec = 'h264' | 'h265';

export interface VideoTrack {
  codec: VideoCodec;
  payloadType: number;
  clockRate: number;
  /** Where SETUP goes. */
  control: string;
  /** Parameter sets from the SDP, in order (H.264: SPS, PPS; H.265: VPS, SPS, PPS); may be empty. */
  parameterSets: Buffer[];
  /** H.264 packetization-mode (0 single NAL, 1 non-interleaved, 2 interleaved). */
  packetizationMode: number;
}

/**
 * The first video media section's first payload type. Throws when there is no video; a codec
 * other than H.264/H.265 is returned as `{ unsupported }` so the caller can say which.
 */
export function videoTrack(sdp: Sdp, baseUrl: string): VideoTrack | { unsupported: string } {
  const media = sdp.media.find((m) => m.type === 'video');
  if (!media) throw new Error('the camera describes no video stream');
  const pt = media.payloadTypes[0];
  if (pt === undefined) throw new Error('the camera’s video stream lists no payload type');
  const map = media.rtpmap.get(pt);
  const encoding = map?.encoding ?? (pt === 26 ? 'JPEG' : pt === 32 ? 'MPV' : `payload type ${pt}`);
  const codec: VideoCodec | undefined = encoding === 'H264' ? 'h264' : encoding === 'H265' || encoding === 'HEVC' ? 'h265' : undefined;
  if (!codec) return { unsupported: `the camera sends ${encoding} video` };
  const fmtp = media.fmtp.get(pt) ?? new Map<string, string>();
  const parameterSets =
    codec === 'h264'
      ? (fmtp.get('sprop-parameter-sets') ?? '').split(',').filter(Boolean).map(base64)
      : ['sprop-vps', 'sprop-sps', 'sprop-pps'].flatMap((k) => (fmtp.get(k) ?? '').split(',').filter(Boolean).map(base64));
  // An absolute session-level control replaces the base; a relative one is the base's own name.
  const sessionBase = sdp.control && /^[a-z][a-z0-9+.-]*:\/\//i.test(sdp.control) ? sdp.control : baseUrl;
  return {
    codec,
    payloadType: pt,
    clockRate: map?.clockRate ?? 90_000,
    control: resolveControl(sessionBase, media.control),
    parameterSets: parameterSets.filter((b) => b.length > 0),
    packetizationMode: Number(fmtp.get('packetization-mode') ?? 0),
  };
}

function base64(text: string): Buffer {
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(text)) throw new Error(`SDP parameter set is not base64: ${text.slice(0, 40)}`);
  return Buffer.from(text.trim(), 'base64');
}
