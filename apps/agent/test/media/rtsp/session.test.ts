/**
 * The RTSP exchange itself, against a scripted camera on a local port: what GStreamer's server
 * (the test camera) never asks for — a short session time-out that only keep-alives hold, a redirect
 * and the camera's own keep-alive requests — and TEARDOWN when the reader stops.
 */
import { type Server, type Socket, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openRtspStream } from '../../../src/media/rtsp/stream.ts';

const PORT = 18566 + Number(process.env.RTSP_TEST_PORT_OFFSET ?? 0);
const SDP = 'v=0\r\ns=cam\r\nt=0 0\r\nm=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=fmtp:96 packetization-mode=1;sprop-parameter-sets=Z0LADNoFB+wFqDAwNSgAAAMACAAAAwCkeKFV,aM48gA==\r\na=control:track1\r\n';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  at: number;
}

/** A camera that answers as a script says; each request it gets is noted. */
function scriptedCamera(answer: (req: Seen, socket: Socket) => string | undefined): Promise<{ server: Server; seen: Seen[]; rtcp: Buffer[] }> {
  const seen: Seen[] = [];
  const rtcp: Buffer[] = [];
  const server = createServer((socket) => {
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        // Interleaved packets from the reader (RTCP receiver reports on channel 1).
        while (buf.startsWith('$') && buf.length >= 4) {
          const len = (buf.charCodeAt(2) << 8) | buf.charCodeAt(3);
          if (buf.length < 4 + len) break;
          rtcp.push(Buffer.from(buf.slice(1, 4 + len), 'latin1'));
          buf = buf.slice(4 + len);
        }
        const end = buf.startsWith('$') ? -1 : buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const lines = buf.slice(0, end).split('\r\n');
        buf = buf.slice(end + 4);
        const [method = '', url = ''] = (lines[0] ?? '').split(' ');
        const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const req = { method, url, headers, at: Date.now() };
        seen.push(req);
        const reply = answer(req, socket);
        if (reply !== undefined) socket.write(reply.replace('CSeq: ?', `CSeq: ${headers.cseq}`));
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(PORT, '127.0.0.1', () => resolve({ server, seen, rtcp })));
}

const ok = (extra = '', body = '') => `RTSP/1.0 200 OK\r\nCSeq: ?\r\n${extra}${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`;

/** The usual answers: OPTIONS, DESCRIBE, SETUP (session `s1` with the given time-out), PLAY, the rest 200. */
const camera = (timeoutS: number, publicMethods: string) => (req: Seen) => {
  if (req.method === 'OPTIONS') return ok(`Public: ${publicMethods}\r\n`);
  if (req.method === 'DESCRIBE') return ok(`Content-Type: application/sdp\r\nContent-Base: rtsp://127.0.0.1:${PORT}/live/\r\n`, SDP);
  if (req.method === 'SETUP') return ok(`Session: s1;timeout=${timeoutS}\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n`);
  return ok();
};

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

describe('the RTSP exchange', () => {
  it('sets the video up where the description says, holds a short session with keep-alives, and tears it down on stop', async () => {
    const cam = await scriptedCamera(camera(2, 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER'));
    server = cam.server;
    let ended: string | undefined;
    const stream = openRtspStream(`rtsp://127.0.0.1:${PORT}/live`, { onAccessUnit: () => undefined, onEnd: (e) => (ended = e.reason), firstPacketTimeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 3_300));
    expect(cam.seen.slice(0, 4).map((r) => `${r.method} ${r.url}`)).toEqual([
      `OPTIONS rtsp://127.0.0.1:${PORT}/live`,
      `DESCRIBE rtsp://127.0.0.1:${PORT}/live`,
      `SETUP rtsp://127.0.0.1:${PORT}/live/track1`,
      `PLAY rtsp://127.0.0.1:${PORT}/live/`,
    ]);
    expect(cam.seen[2]?.headers.transport).toBe('RTP/AVP/TCP;unicast;interleaved=0-1');
    // Every second (half the 2 s time-out), with the session, GET_PARAMETER since the camera has it.
    const keepAlives = cam.seen.filter((r) => r.method === 'GET_PARAMETER');
    expect(keepAlives.length).toBeGreaterThanOrEqual(2);
    expect(keepAlives.every((r) => r.headers.session === 's1')).toBe(true);
    // With a receiver report on the RTCP channel each time (channel 1, packet type 201).
    expect(cam.rtcp.length).toBeGreaterThanOrEqual(2);
    expect(cam.rtcp.every((p) => p[0] === 1 && p[4] === 201)).toBe(true);
    stream.stop();
    await expect.poll(() => cam.seen.at(-1)?.method).toBe('TEARDOWN');
    expect(cam.seen.at(-1)?.headers.session).toBe('s1');
    expect(ended).toBeUndefined();
  });

  it('keeps a session alive with OPTIONS when the camera has no GET_PARAMETER, and answers the camera’s own requests', async () => {
    const answers: string[] = [];
    const cam = await scriptedCamera((req, socket) => {
      if (req.method === 'PLAY') {
        // The camera asks something itself; the reader must answer it.
        socket.on('data', (d) => answers.push(d.toString('latin1')));
        setTimeout(() => socket.write('GET_PARAMETER rtsp://127.0.0.1/live RTSP/1.0\r\nCSeq: 77\r\n\r\n'), 100);
      }
      return camera(2, 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN')(req);
    });
    server = cam.server;
    const stream = openRtspStream(`rtsp://127.0.0.1:${PORT}/live`, { onAccessUnit: () => undefined, onEnd: () => undefined, firstPacketTimeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 2_300));
    stream.stop();
    expect(cam.seen.filter((r) => r.method === 'OPTIONS').length).toBeGreaterThanOrEqual(2);
    expect(answers.join('')).toMatch(/^RTSP\/1\.0 200 OK\r\nCSeq: 77\r\n/m);
  });

  it('follows a redirect, and says what the camera answered when it refuses', async () => {
    const cam = await scriptedCamera((req) => {
      if (req.method === 'DESCRIBE' && req.url.endsWith('/old')) return `RTSP/1.0 302 Moved\r\nCSeq: ?\r\nLocation: rtsp://127.0.0.1:${PORT}/gone\r\n\r\n`;
      if (req.method === 'DESCRIBE') return `RTSP/1.0 404 Stream Not Found\r\nCSeq: ?\r\n\r\n`;
      return ok();
    });
    server = cam.server;
    const end = await new Promise<{ reason: string; fallback?: string }>((resolve) => openRtspStream(`rtsp://127.0.0.1:${PORT}/old`, { onAccessUnit: () => undefined, onEnd: resolve }));
    expect(cam.seen.filter((r) => r.method === 'DESCRIBE').map((r) => r.url)).toEqual([`rtsp://127.0.0.1:${PORT}/old`, `rtsp://127.0.0.1:${PORT}/gone`]);
    expect(end).toEqual({ reason: 'the camera answered DESCRIBE with 404 Stream Not Found' });
  });

  it('says when nobody answers at all', async () => {
    const end = await new Promise<{ reason: string }>((resolve) => openRtspStream(`rtsp://127.0.0.1:${PORT}/x`, { onAccessUnit: () => undefined, onEnd: resolve }));
    expect(end.reason).toMatch(/cannot connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });
});
