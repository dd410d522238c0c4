/**
 * How long each camera reader holds a picture: a real RTSP camera (scripts/rtsp-camera.py, x264,
 * GStreamer's RTSP server) behind a TCP proxy that notes when the last packet of each picture (the
 * RTP marker bit) arrives from the camera; the camera session (camera-session.ts) then says when
 * it has the whole picture. The hold is the time between the two — what the reader adds before the
 * recorder and live streams can have the picture. Cold start: from the first subscriber to the
 * first picture at the session, and to the first RTP packet at the proxy (the RTSP handshake).
 *
 *   node --import tsx apps/agent/bench/camera-reader.bench.ts [--port=18570] [--fps=10,25]
 *     [--seconds=10] [--rounds=4] [--size=640x360] [--slices=2] [--readers=rtsp,ffmpeg]
 *
 * The camera listens on --port, the proxy on --port + 1. Both readers run in turn, one at a time
 * (a GStreamer camera restamps every client when another starts), `--rounds` times each per rate.
 */
import { type Socket, createServer, connect } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { CameraSession, type SessionPicture } from '../src/media/camera-session.ts';
import type { CameraReaderKind } from '../src/media/camera-reader.ts';
import { TimestampUnwrapper } from '../src/media/rtsp/rtp.ts';
import { startRtspCamera } from '../test/helpers/rtsp-camera.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const PORT = Number(arg('port', '18570'));
const RATES = arg('fps', '10,25').split(',').map(Number);
const SECONDS = Number(arg('seconds', '10'));
const ROUNDS = Number(arg('rounds', '4'));
const [WIDTH, HEIGHT] = arg('size', '640x360').split('x').map(Number) as [number, number];
const SLICES = Number(arg('slices', '2'));
const READERS = arg('readers', 'rtsp,ffmpeg').split(',') as CameraReaderKind[];

/** Arrival of each picture's marked packet at the proxy, by unwrapped RTP timestamp. */
interface Tap {
  markers: Map<number, number>;
  firstPacketAt: number | undefined;
}

/** A TCP proxy in front of the camera that reads the interleaved RTP passing to the client. */
function startProxy(listenPort: number, cameraPort: number): Promise<{ tap: () => Tap; reset: () => void; close: () => void }> {
  let tap: Tap = { markers: new Map(), firstPacketAt: undefined };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    // Only the newest connection is measured: a stopped reader's camera may still send for a moment.
    const mine: Tap = (tap = { markers: new Map(), firstPacketAt: undefined });
    const camera = connect({ host: '127.0.0.1', port: cameraPort });
    sockets.add(client).add(camera);
    client.setNoDelay(true);
    camera.setNoDelay(true);
    const clock = new TimestampUnwrapper();
    let buf = Buffer.alloc(0);
    camera.on('data', (chunk: Buffer) => {
      const now = performance.now();
      client.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      let at = 0;
      for (;;) {
        if (buf[at] === 0x24) {
          if (at + 4 > buf.length) break;
          const len = buf.readUInt16BE(at + 2);
          if (at + 4 + len > buf.length) break;
          if (buf[at + 1] === 0 && len >= 12 && mine === tap) {
            tap.firstPacketAt ??= now;
            const ts = clock.unwrap(buf.readUInt32BE(at + 8));
            if (((buf[at + 5] as number) & 0x80) !== 0) tap.markers.set(ts, now);
          }
          at += 4 + len;
        } else {
          const end = buf.indexOf('\r\n\r\n', at, 'latin1');
          if (end < 0) break;
          const length = Number(/content-length:\s*(\d+)/i.exec(buf.toString('latin1', at, end))?.[1] ?? 0);
          if (end + 4 + length > buf.length) break;
          at = end + 4 + length;
        }
      }
      buf = buf.subarray(at);
    });
    client.on('data', (chunk) => camera.write(chunk));
    const close = () => {
      client.destroy();
      camera.destroy();
    };
    client.on('close', close).on('error', close);
    camera.on('close', close).on('error', close);
  });
  return new Promise((resolve) =>
    server.listen(listenPort, '127.0.0.1', () =>
      resolve({
        tap: () => tap,
        reset: () => (tap = { markers: new Map(), firstPacketAt: undefined }),
        close: () => {
          for (const s of sockets) s.destroy();
          server.close();
        },
      }),
    ),
  );
}

/**
 * Each picture's hold: its arrival at the session minus its marked packet's at the proxy. The
 * session's stamps are the camera's plus a constant (within a run without discontinuity): the
 * constant is the one that pairs the most pictures with a marked packet's timestamp.
 */
function holds(pictures: (SessionPicture & { at: number })[], markers: Map<number, number>): number[] {
  const stamps = [...markers.keys()].map((ts) => ({ ms: ts / 90, at: markers.get(ts) as number }));
  const votes = new Map<number, number>();
  for (const p of pictures.slice(0, 20)) for (const s of stamps) votes.set(Math.round(p.timestampMs - s.ms), (votes.get(Math.round(p.timestampMs - s.ms)) ?? 0) + 1);
  const offset = [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const out: number[] = [];
  for (const p of pictures) {
    const s = stamps.find((x) => Math.abs(x.ms + offset - p.timestampMs) <= 1.5);
    if (s) out.push(p.at - s.at);
  }
  return out;
}

const q = (sorted: number[], f: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * f))] ?? NaN;
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');

async function round(url: string, reader: CameraReaderKind, proxy: Awaited<ReturnType<typeof startProxy>>) {
  proxy.reset();
  const session = new CameraSession(url, { reader, lingerMs: 0 });
  const pictures: (SessionPicture & { at: number })[] = [];
  const t0 = performance.now();
  session.subscribe((e) => {
    if (e.kind === 'picture') pictures.push({ ...e.picture, at: performance.now() });
  });
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  await session.stop();
  const tap = proxy.tap();
  const h = holds(pictures, tap.markers);
  return {
    holds: h,
    pictures: pictures.length,
    unmatched: pictures.length - h.length,
    firstPicture: (pictures[0]?.at ?? NaN) - t0,
    firstPacket: (tap.firstPacketAt ?? NaN) - t0,
    firstHold: h[0] ?? NaN,
    discontinuities: session.health().discontinuities,
  };
}

const camera0 = { port: PORT, slices: SLICES, width: WIDTH, height: HEIGHT, gopSeconds: 1, bitrateKbps: 800 };
console.log(`camera readers: ${WIDTH}×${HEIGHT}, ${SLICES} slice(s) a picture, GOP 1 s; ${ROUNDS} rounds × ${SECONDS} s per reader and rate; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const proxy = await startProxy(PORT + 1, PORT);
for (const fps of RATES) {
  const camera = await startRtspCamera({ ...camera0, fps });
  const url = `rtsp://127.0.0.1:${PORT + 1}/cam`;
  const results = new Map<CameraReaderKind, Awaited<ReturnType<typeof round>>[]>(READERS.map((r) => [r, []]));
  for (let i = 0; i < ROUNDS; i++) for (const reader of READERS) results.get(reader)?.push(await round(url, reader, proxy));
  await camera.stop();
  console.log(`\n${fps} fps (a frame every ${fmt(1000 / fps)} ms), load average ${loadavg()[0]?.toFixed(2)}`);
  console.log('reader | pictures | hold median | p95 | max | cold: first RTP packet (median) | first picture (median, range) | first picture’s hold (median)');
  for (const [reader, rs] of results) {
    const all = rs.flatMap((r) => r.holds).sort((a, b) => a - b);
    const med = (xs: number[]) => q([...xs].sort((a, b) => a - b), 0.5);
    const firsts = rs.map((r) => r.firstPicture);
    console.log(
      `${reader} | ${all.length} (${rs.reduce((n, r) => n + r.unmatched, 0)} unmatched) | ${fmt(q(all, 0.5))} ms | ${fmt(q(all, 0.95))} ms | ${fmt(all.at(-1) ?? NaN)} ms | ${fmt(med(rs.map((r) => r.firstPacket)))} ms | ${fmt(med(firsts))} ms (${fmt(Math.min(...firsts))}–${fmt(Math.max(...firsts))}) | ${fmt(med(rs.map((r) => r.firstHold)))} ms`,
    );
  }
}
proxy.close();
