/**
 * Live video of an H.265 camera (a real RTSP camera, scripts/rtsp-camera.py with x265): how long a
 * live stream takes to its first byte, and what the ship's one shared transcode to H.264 costs.
 *
 * - before: the camera read by a live stream of its own, as when the session could not carry
 *   H.265 (UrlCamera without sessions: ffprobe of the camera, then ffmpeg reading it and
 *   transcoding) — cold every time;
 * - cold: the session opened by the live stream itself (no recorder holding it);
 * - warm: the session already open (the ship recorder holds it, as on a ship), hvc1 copied and
 *   H.264 transcoded from it.
 * - CPU: user + system time of the transcoding ffmpeg over `--seconds`, per cent of one core.
 *
 *   node --import tsx apps/agent/bench/hevc-live.bench.ts [--port=19530] [--size=640x360] [--fps=10]
 *     [--rounds=3] [--seconds=10]
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { type EncodeSpec, decodeStreamFrame } from '@ship-cctv/protocol';
import { CameraSources } from '../src/camera-sources.ts';
import { CameraSessions } from '../src/media/camera-session.ts';
import { type LiveLink, LiveStreams } from '../src/media/live-streams.ts';
import { startRtspCamera } from '../test/helpers/rtsp-camera.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const PORT = Number(arg('port', '19530'));
const [WIDTH, HEIGHT] = arg('size', '640x360').split('x').map(Number) as [number, number];
const FPS = Number(arg('fps', '10'));
const ROUNDS = Number(arg('rounds', '3'));
const SECONDS = Number(arg('seconds', '10'));
const CAMERA_ID = 'BENCH-C01-1';

const encode = (passThrough: boolean): EncodeSpec => ({ width: WIDTH, height: HEIGHT, frameRate: FPS, bitrateKbps: passThrough ? 5_000 : 400, codec: 'h264', ...(passThrough ? { passThrough: ['h265' as const] } : {}) });

/** The first byte of stream `id` after `live.start`, in ms. */
function firstByte(streams: LiveStreams, link: { firstAt: Map<number, number> }, id: number, passThrough: boolean): Promise<number> {
  const asked = performance.now();
  streams.handle({ type: 'live.start', streamId: id, cameraId: CAMERA_ID, encode: encode(passThrough) });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const at = link.firstAt.get(id);
      if (at !== undefined) {
        clearInterval(timer);
        resolve(at - asked);
      } else if (performance.now() - asked > 20_000) {
        clearInterval(timer);
        reject(new Error(`stream ${id}: no byte within 20 s`));
      }
    }, 2);
  });
}

function fakeLink(): LiveLink & { firstAt: Map<number, number> } {
  const firstAt = new Map<number, number>();
  return {
    firstAt,
    sendJson: () => undefined,
    sendBinary: (frame) => {
      const id = decodeStreamFrame(frame)?.streamId;
      if (id !== undefined && !firstAt.has(id)) firstAt.set(id, performance.now());
    },
    bufferedAmount: () => 0,
  };
}

/** CPU seconds (user + system) of a process so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const camera = await startRtspCamera({ port: PORT, codec: 'h265', width: WIDTH, height: HEIGHT, fps: FPS, gopSeconds: 1, bitrateKbps: 800 });
  const rows: Record<string, number[]> = { before: [], coldCopy: [], coldTranscode: [], warmCopy: [], warmTranscode: [] };
  let id = 1;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Before: no session, the stream reads the camera itself.
      {
        const link = fakeLink();
        const streams = new LiveStreams(new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], {}), { codecs: ['h264'] });
        streams.attach(link);
        rows.before?.push(await firstByte(streams, link, id++, false));
        await streams.stopAll();
      }
      // Cold and warm, through the camera's session.
      for (const passThrough of [true, false]) {
        const sessions = new CameraSessions({ lingerMs: 0 });
        const link = fakeLink();
        const streams = new LiveStreams(new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], { sessions }), { codecs: ['h264'] });
        streams.attach(link);
        (passThrough ? rows.coldCopy : rows.coldTranscode)?.push(await firstByte(streams, link, id++, passThrough));
        await streams.stopAll();
        const hold = sessions.get(camera.url).subscribe(() => undefined);
        await sessions.get(camera.url).ready(10_000);
        (passThrough ? rows.warmCopy : rows.warmTranscode)?.push(await firstByte(streams, link, id++, passThrough));
        await streams.stopAll();
        hold();
        await sessions.stopAll();
      }
    }
    // The one transcode's CPU, fed by a held session as on a ship.
    const sessions = new CameraSessions();
    const hold = sessions.get(camera.url).subscribe(() => undefined);
    await sessions.get(camera.url).ready(10_000);
    const link = fakeLink();
    const streams = new LiveStreams(new CameraSources([{ cameraId: CAMERA_ID, source: camera.url }], { sessions }), { codecs: ['h264'] });
    streams.attach(link);
    const before = new Set(ffmpegPids());
    await firstByte(streams, link, id++, false);
    const pid = ffmpegPids().find((p) => !before.has(p));
    if (pid === undefined) throw new Error('no transcoding ffmpeg found');
    const cpu0 = cpuSeconds(pid);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const cpuShare = (cpuSeconds(pid) - cpu0) / ((performance.now() - t0) / 1000);
    await streams.stopAll();
    hold();
    await sessions.stopAll();

    const fmt = (xs: number[] | undefined) => `${median(xs ?? []).toFixed(0)} ms (${(xs ?? []).map((x) => x.toFixed(0)).join(', ')})`;
    console.log(`H.265 camera ${WIDTH}×${HEIGHT} at ${FPS} fps, ${ROUNDS} rounds, load average ${loadavg()[0]?.toFixed(1)}`);
    console.log(`| live start, first byte | median (runs) |`);
    console.log(`|---|---|`);
    console.log(`| before: the stream reads the camera itself, transcoded | ${fmt(rows.before)} |`);
    console.log(`| cold session, hvc1 as it is | ${fmt(rows.coldCopy)} |`);
    console.log(`| cold session, transcoded to H.264 | ${fmt(rows.coldTranscode)} |`);
    console.log(`| running session, hvc1 as it is | ${fmt(rows.warmCopy)} |`);
    console.log(`| running session, transcoded to H.264 | ${fmt(rows.warmTranscode)} |`);
    console.log(`shared transcode H.265 → H.264 ${WIDTH}×${HEIGHT} at ${FPS} fps, 400 kbit/s: ${(cpuShare * 100).toFixed(1)} % of one core over ${SECONDS} s`);
  } finally {
    await camera.stop();
  }
}

/** ffmpeg processes that are this process's children. */
function ffmpegPids(): number[] {
  const out: number[] = [];
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.split(') ')[1]?.split(' ')[1]);
      if (ppid === process.pid && stat.includes('(ffmpeg)')) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
